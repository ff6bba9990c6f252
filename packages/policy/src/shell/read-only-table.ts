import { checkAwk, checkGit, checkSed, generic } from './read-only-checks.js'
import type { ReadOnlyEntry } from './read-only-entry.js'
import { FILE_READERS } from './read-only-files.js'
import { TEXT_TOOLS } from './read-only-text-tools.js'
import type { ShellWord } from './types.js'

/**
 * The commands the read-only proof accepts, with the options that keep them read-only. A command
 * not listed here is never proven read-only. Each entry's examples are checked by a test.
 */
export const READ_ONLY_COMMANDS: readonly ReadOnlyEntry[] = [
  ...FILE_READERS,
  {
    names: ['git'],
    summary:
      'status, log, diff, show, shortlog, blame, describe, rev-parse, rev-list, ls-files, ls-tree, cat-file, merge-base, show-ref, grep, branch (listing), tag (listing), remote -v, stash list/show, worktree list, config --get/--list; never with `-c`, `--config-env`, `--exec-path`, `--output`, `--ext-diff`, `--textconv`, `-O`',
    match: [
      'git status',
      'git log --oneline -5',
      'git diff HEAD~1',
      'git branch --list',
      'git branch -a',
      'git config --get user.name',
    ],
    notMatch: [
      'git -c core.pager=sh log',
      'git diff --output=x',
      'git log --ext-diff',
      'git branch new',
      'git push',
      'git commit -m x',
      'git config user.name x',
      'git stash',
    ],
    check: checkGit,
  },
  {
    names: ['sed'],
    summary:
      'without `-i`/`--in-place`/`-f`; every script statement is p, d, q, =, n, s/…/…/ (flags g p i I m M and numbers) or y; no w, W, e, r, R',
    match: ["sed -n '1,20p' a.ts", "sed 's/a/b/g' x", "sed -n -e '/foo/p' f"],
    notMatch: [
      "sed -i 's/a/b/' x",
      "sed 's/a/b/w out' x",
      "sed 'e ls' x",
      'sed -f script.sed x',
      "sed '1r /etc/passwd' x",
    ],
    check: checkSed,
  },
  {
    names: ['awk', 'gawk', 'mawk', 'nawk'],
    summary:
      'a literal program without system, getline, pipes, fflush, close, @-directives or print redirection; no `-f`',
    match: ["awk '{print $1}' a.txt", "awk -F: 'NF > 2' x"],
    notMatch: ['awk \'BEGIN{system("rm x")}\'', 'awk \'{print > "out"}\' a', 'awk -f prog.awk a'],
    check: checkAwk,
  },
  {
    names: ['sort'],
    summary: 'without `-o`/`--output`/`--compress-program`',
    match: ['sort -u names.txt', 'sort -k2 -t, x'],
    notMatch: ['sort -o out in', 'sort --output=out in', 'sort --compress-program=sh x'],
    anyArgsSafe: false,
    check: generic({
      operands: 'files',
      forbidden: ['-o', '--output', '--compress-program', '--files0-from'],
      fileFlags: ['--random-source'],
      valueFlags: [
        '-k',
        '--key',
        '-t',
        '--field-separator',
        '-S',
        '--buffer-size',
        '-T',
        '--temporary-directory',
        '--parallel',
        '--batch-size',
        '--files0-from',
        '--sort',
        '--random-source',
      ],
    }),
  },
  {
    names: ['uniq'],
    summary: 'at most one operand (a second one is an output file)',
    match: ['uniq -c x'],
    notMatch: ['uniq in out'],
    check: generic({
      operands: 'files',
      maxOperands: 1,
      valueFlags: ['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars'],
    }),
  },
  ...TEXT_TOOLS,
  {
    names: ['base64', 'base32', 'basenc'],
    summary: 'without `-o`/`--output` (BSD output file); operands are files read',
    match: ['base64 key.bin', 'base64 -d x'],
    notMatch: ['base64 -o out in', 'base64 in > out'],
    anyArgsSafe: false,
    check: generic({
      operands: 'files',
      forbidden: ['-o', '--output'],
      fileFlags: ['-i', '--input'],
      valueFlags: ['-w', '--wrap', '-b', '-i', '--input'],
    }),
  },
  {
    names: ['xxd'],
    summary: 'at most one operand (a second one is an output file)',
    match: ['xxd a.bin'],
    notMatch: ['xxd a.bin out'],
    check: generic({
      operands: 'files',
      maxOperands: 1,
      valueFlags: ['-l', '-s', '-c', '-g', '-o', '-n', '-cols', '-len', '-seek'],
    }),
  },
  {
    names: ['tree'],
    summary: 'without `-o` (output file); recursive',
    match: ['tree -L 2 src'],
    notMatch: ['tree -o out.txt'],
    check: generic({
      operands: 'files',
      cwdDefault: true,
      recursive: true,
      forbidden: ['-o'],
      valueFlags: ['-L', '-P', '-I', '--charset', '--filelimit', '--timefmt', '-H', '--sort'],
    }),
  },
  {
    names: ['du'],
    summary: 'any options; operands are folders read recursively',
    match: ['du -sh src'],
    notMatch: ['du -sh > sizes'],
    anyArgsSafe: true,
    check: generic({
      operands: 'files',
      cwdDefault: true,
      recursive: true,
      forbidden: ['--files0-from'],
      valueFlags: [
        '-d',
        '--max-depth',
        '-B',
        '--block-size',
        '-t',
        '--threshold',
        '--exclude',
        '-X',
        '--exclude-from',
        '--time-style',
        '--files0-from',
      ],
    }),
  },
  {
    names: [
      'echo',
      'printf',
      'pwd',
      'true',
      'false',
      'which',
      'type',
      'whereis',
      'basename',
      'dirname',
      'realpath',
      'readlink',
      'seq',
      'whoami',
      'id',
      'groups',
      'uname',
      'arch',
      'nproc',
      'printenv',
      'tty',
      'locale',
      'test',
      '[',
      '[[',
      'expr',
      'sleep',
      'tr',
      'yes',
      'cd',
      'ps',
      'df',
      'free',
      'uptime',
      'jobs',
    ],
    summary: 'operands are text, not files (tr reads standard input only)',
    match: ['echo hello', 'pwd', 'which node', 'test -f x', '[ -d src ]', 'cd src && ls'],
    notMatch: ['echo x > f', 'printf x >> f'],
    anyArgsSafe: true,
    check: generic({ operands: 'text' }),
  },
  {
    names: ['date'],
    summary: 'without `-s`/`--set`',
    match: ['date', 'date +%s', 'date -u'],
    notMatch: ['date -s "2020-01-01"', 'date --set=now'],
    check: generic({
      operands: 'text',
      forbidden: ['-s', '--set'],
      valueFlags: ['-d', '--date', '-r', '--reference', '-f', '--file'],
      fileFlags: ['-r', '--reference', '-f', '--file'],
    }),
  },
  {
    names: ['hostname'],
    summary: 'without an operand, `-F`/`--file` or `-b`/`--boot` (which set the name)',
    match: ['hostname', 'hostname -f'],
    notMatch: ['hostname newname', 'hostname -F /etc/x', 'hostname -Fx'],
    check: generic({ operands: 'none', forbidden: ['-F', '--file', '-b', '--boot'] }),
  },
  {
    names: ['file'],
    summary: 'without `-C`/`--compile` (which writes a magic file); operands are files read',
    match: ['file a.bin', 'file -b src/*'],
    notMatch: ['file -C -m magic'],
    anyArgsSafe: false,
    check: generic({
      operands: 'files',
      forbidden: ['-C', '--compile'],
      valueFlags: [
        '-m',
        '--magic-file',
        '-f',
        '--files-from',
        '-F',
        '--separator',
        '-P',
        '--parameter',
        '-e',
        '--exclude',
      ],
      fileFlags: ['-m', '--magic-file', '-f', '--files-from'],
    }),
  },
  {
    names: ['command'],
    summary: 'only `command -v`/`-V` (a lookup); other uses run the command',
    match: ['command -v node'],
    notMatch: ['command rm x'],
    check: (args) =>
      args[0]?.value === '-v' || args[0]?.value === '-V'
        ? { readOnly: true, files: [], recursive: false }
        : { readOnly: false, reason: 'command runs its operand' },
  },
  {
    names: ['env'],
    summary: 'without a command it only prints the environment',
    match: ['env'],
    notMatch: ['env rm x', 'env FOO=1'],
    check: generic({ operands: 'none' }),
  },
  {
    names: ['jq'],
    summary: 'any options; the first operand is the filter, the rest are files read',
    match: ["jq '.name' package.json", 'jq -r .x a.json'],
    notMatch: ['jq . a.json > b.json'],
    check: (args) => {
      const operands: ShellWord[] = []
      const files: ShellWord[] = []
      let programFromFile = false
      for (let index = 0; index < args.length; index++) {
        const word = args[index] as ShellWord
        const value = word.value
        if (value === '--slurpfile' || value === '--rawfile') {
          const file = args[index + 2]
          if (file) files.push(file)
          index += 2
        } else if (value === '--arg' || value === '--argjson') index += 2
        else if (value === '-f' || value === '--from-file') {
          const file = args[index + 1]
          if (file) files.push(file)
          programFromFile = true
          index += 1
        } else if (value === '-L' || value === '--indent') index += 1
        else if (value === '--args' || value === '--jsonargs') break
        else if (!value.startsWith('-') || value === '-') operands.push(word)
      }
      return {
        readOnly: true,
        files: [...files, ...(programFromFile ? operands : operands.slice(1))],
        recursive: false,
      }
    },
  },
]

const BY_NAME = new Map<string, ReadOnlyEntry>()
for (const entry of READ_ONLY_COMMANDS) for (const name of entry.names) BY_NAME.set(name, entry)

/** The table entry of a command name, if the proof knows it. */
export function readOnlyEntry(name: string): ReadOnlyEntry | undefined {
  return BY_NAME.get(name)
}
