import { readArgs } from './command-args.js'
import type { Target } from './target.js'
import type { EffectiveCommand } from './unwrap.js'
import { targetOf } from './word-targets.js'

/** Download tools' options that name files they write; `unknown` ones write a file named by the server. */
const DOWNLOADERS: Readonly<
  Record<
    string,
    {
      files: readonly string[]
      unknown: readonly string[]
      values: readonly string[]
      byDefault: boolean
      /** Built once below, so the option reader caches its set. */
      options?: { valueFlags: readonly string[] }
    }
  >
> = {
  curl: {
    files: [
      '-o',
      '--output',
      '-D',
      '--dump-header',
      '-c',
      '--cookie-jar',
      '--trace',
      '--trace-ascii',
      '--stderr',
      '--etag-save',
      '--hsts',
      '--alt-svc',
      '--libcurl',
      '--output-dir',
    ],
    unknown: ['-O', '--remote-name', '--remote-name-all', '-J', '--remote-header-name'],
    values: [
      '-d',
      '--data',
      '--data-binary',
      '--data-raw',
      '-H',
      '--header',
      '-u',
      '--user',
      '-X',
      '--request',
      '-A',
      '--user-agent',
      '-e',
      '--referer',
      '-F',
      '--form',
      '-b',
      '--cookie',
      '-T',
      '--upload-file',
      '-m',
      '--max-time',
      '-w',
      '--write-out',
      '-x',
      '--proxy',
      '-K',
      '--config',
      '-r',
      '--range',
    ],
    byDefault: false,
  },
  wget: {
    files: [
      '-O',
      '--output-document',
      '-o',
      '--output-file',
      '-a',
      '--append-output',
      '-P',
      '--directory-prefix',
    ],
    unknown: [],
    values: [
      '-t',
      '--tries',
      '-T',
      '--timeout',
      '-U',
      '--user-agent',
      '--header',
      '-e',
      '--execute',
      '-i',
      '--input-file',
      '-w',
      '--wait',
    ],
    byDefault: true,
  },
}
for (const spec of Object.values(DOWNLOADERS)) spec.options = { valueFlags: [...spec.files, ...spec.values] }

/** The files curl/wget write through their options, whatever rule allowed them. */
export function downloadTargets(command: EffectiveCommand, cwd: string | undefined, home: string): Target[] {
  const name = command.words[0]
  const spec = name?.literal ? DOWNLOADERS[name.value] : undefined
  if (!spec) return []
  const read = readArgs(command.words.slice(1), spec.options ?? {})
  const writes: Target[] = []
  for (const option of spec.files) {
    for (const word of read.values.get(option) ?? [])
      if (word.value !== '-') writes.push(targetOf(word, cwd, home))
  }
  const named = read.values.has('-O') || read.values.has('--output-document')
  if (read.flags.some((flag) => spec.unknown.includes(flag)) || (spec.byDefault && !named) || read.refusal)
    writes.push({ kind: 'unknown', text: `(a file ${name?.value} names itself)` })
  return writes
}
