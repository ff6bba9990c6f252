import { generic } from './read-only-checks.js'
import type { ReadOnlyEntry } from './read-only-entry.js'

/**
 * A text utility whose operands are files read. `valueFlags` must be exact per command: a flag
 * wrongly listed as taking a value would hide the file after it (`od -c .env`).
 */
function reader(
  names: readonly string[],
  valueFlags: readonly string[],
  match: readonly string[],
  notMatch: readonly string[],
  extra: { recursive?: readonly string[]; fileFlags?: readonly string[] } = {},
): ReadOnlyEntry {
  return {
    names,
    summary: `any options; operands are files read${extra.recursive ? ' (`-r` recursively)' : ''}`,
    match,
    notMatch,
    anyArgsSafe: true,
    check: generic({ operands: 'files', valueFlags, ...extra }),
  }
}

/** Table entries for text utilities (cut, diff, od, checksums…), each with its own value flags. */
export const TEXT_TOOLS: readonly ReadOnlyEntry[] = [
  reader(
    ['cut'],
    ['-d', '-f', '-b', '-c', '--delimiter', '--fields', '--bytes', '--characters', '--output-delimiter'],
    ['cut -d, -f1 x.csv', 'cut -c1-10 a'],
    ['cut -f1 a > b'],
  ),
  reader(
    ['column'],
    [
      '-s',
      '-c',
      '-o',
      '-N',
      '-W',
      '-E',
      '-H',
      '-R',
      '-O',
      '--separator',
      '--output-separator',
      '--output-width',
      '--table-columns',
    ],
    ['column -t -s, x.csv'],
    ['column -t a > b'],
  ),
  reader(['comm'], ['--output-delimiter'], ['comm -12 a b'], ['comm a b > c']),
  reader(['cmp'], ['-i', '-n', '--ignore-initial', '--bytes'], ['cmp a b', 'cmp -n 10 a b'], ['cmp a b > c']),
  reader(
    ['diff'],
    [
      '--label',
      '-I',
      '--ignore-matching-lines',
      '-x',
      '--exclude',
      '-X',
      '--exclude-from',
      '-F',
      '--show-function-line',
      '-S',
      '--starting-file',
      '--from-file',
      '--to-file',
      '--palette',
      '--horizon-lines',
      '-W',
      '--width',
      '--tabsize',
      '-D',
      '--ifdef',
    ],
    ['diff a b', 'diff -ru src other', 'diff -u a b'],
    ['diff a b > p.diff'],
    { recursive: ['-r', '--recursive'], fileFlags: ['-X', '--exclude-from', '--from-file', '--to-file'] },
  ),
  reader(['paste'], ['-d', '--delimiters'], ['paste -d, a b'], ['paste a b > c']),
  reader(['join'], ['-1', '-2', '-j', '-t', '-o', '-e', '-a', '-v'], ['join -t, a b'], ['join a b > c']),
  reader(['fold'], ['-w', '--width'], ['fold -w 80 a'], ['fold a > b']),
  reader(['fmt'], ['-w', '-p', '-g', '--width', '--prefix', '--goal'], ['fmt -w 72 a'], ['fmt a > b']),
  reader(['expand', 'unexpand'], ['-t', '--tabs'], ['expand -t 4 a'], ['expand a > b']),
  reader(
    ['od'],
    [
      '-A',
      '-j',
      '-N',
      '-S',
      '-t',
      '-w',
      '--address-radix',
      '--skip-bytes',
      '--read-bytes',
      '--strings',
      '--format',
      '--width',
    ],
    ['od -c a.bin', 'od -A x -t x1z a'],
    ['od a > b'],
  ),
  reader(['hexdump', 'hd'], ['-n', '-s', '-e', '-f', '-L'], ['hexdump -C a.bin'], ['hexdump a > b'], {
    fileFlags: ['-f'],
  }),
  reader(
    ['strings'],
    ['-n', '-t', '-e', '-T', '--bytes', '--radix', '--encoding', '--target'],
    ['strings -n 8 a.bin'],
    ['strings a > b'],
  ),
  reader(['stat'], ['-c', '--format', '--printf'], ['stat src', "stat -c '%s' a"], ['stat a > b']),
  reader(
    ['md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum'],
    ['-l', '--length', '-a', '--algorithm'],
    ['sha256sum a', 'md5sum -c sums.txt'],
    ['sha256sum a > sums'],
  ),
]
