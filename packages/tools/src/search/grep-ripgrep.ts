import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { stat } from 'node:fs/promises'
import { delimiter, isAbsolute, join } from 'node:path'
import type { GrepFileResult, GrepLine, GrepOutcome, GrepQuery } from './grep-types.js'
import { VCS_DIRS } from './overrides.js'

let cachedRg: string | null | undefined

/**
 * The `rg` binary in PATH's absolute folders, or undefined (looked up once per process). Never a
 * relative entry's (`.`, `node_modules/.bin`): that would be the project's own `rg`, run unconfined.
 */
export function findRipgrep(path = process.env.PATH ?? ''): string | undefined {
  if (cachedRg === undefined) {
    cachedRg = null
    for (const dir of path.split(delimiter)) {
      if (isAbsolute(dir) && existsSync(join(dir, 'rg'))) {
        cachedRg = join(dir, 'rg')
        break
      }
    }
  }
  return cachedRg ?? undefined
}

/** The arguments that make ripgrep select files like the built-in walk. */
export function selectionArgs(globs: readonly string[], types: readonly string[]): string[] {
  const args = ['--no-config', '--hidden', '--no-require-git', '--no-ignore-global']
  for (const glob of globs) args.push('--glob', glob)
  // Last, so they win over the user's globs (ripgrep: the last matching glob decides).
  for (const dir of VCS_DIRS) args.push('--glob', `!${dir}`)
  for (const type of types) args.push('--type', type)
  return args
}

/** Runs ripgrep and collects stdout; stderr is kept for error messages. */
export function runRipgrep(
  rg: string,
  args: string[],
  signal?: AbortSignal,
  cwd?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(rg, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(signal ? { signal } : {}),
      ...(cwd ? { cwd } : {}),
    })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', (error) => resolve({ code: 2, stdout: '', stderr: error.message }))
    child.on('close', (code) =>
      resolve({
        code,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    )
  })
}

interface JsonText {
  text?: string
  bytes?: string
}

function textOf(value: JsonText | undefined): string {
  if (!value) return ''
  if (value.text !== undefined) return value.text
  return Buffer.from(value.bytes ?? '', 'base64').toString('utf8')
}

/** Searches with ripgrep (`--json` for content, `-l` and `-c` otherwise). */
export async function grepWithRipgrep(rg: string, query: GrepQuery): Promise<GrepOutcome> {
  const args = selectionArgs(query.globs, query.types)
  args.push(query.caseInsensitive ? '--ignore-case' : '--case-sensitive')
  if (query.multiline) args.push('--multiline', '--multiline-dotall')
  switch (query.mode) {
    case 'files_with_matches':
      args.push('--files-with-matches')
      break
    case 'count':
      args.push('--count', '--with-filename')
      break
    case 'content':
      args.push('--json', '--after-context', String(query.after), '--before-context', String(query.before))
      break
    default: {
      const never: never = query.mode
      return never
    }
  }
  // ripgrep anchors globs at its working directory, so it runs in the search folder (on '.').
  const rootIsDir = await isDirectory(query.root)
  args.push('--regexp', query.pattern, '--', rootIsDir ? '.' : query.root)
  const run = await runRipgrep(rg, args, query.signal, rootIsDir ? query.root : undefined)
  if (run.code === 2 && run.stdout === '') {
    return { ok: false, message: run.stderr.trim() || 'ripgrep failed' }
  }
  const files = new Map<string, GrepFileResult>()
  const fileFor = (printed: string): GrepFileResult => {
    const path = rootIsDir ? join(query.root, printed) : printed
    let file = files.get(path)
    if (!file) {
      file = { path, count: 0, lines: [] }
      files.set(path, file)
    }
    return file
  }
  for (const line of run.stdout.split('\n')) {
    if (line === '') continue
    switch (query.mode) {
      case 'files_with_matches':
        fileFor(line)
        break
      case 'count': {
        const colon = line.lastIndexOf(':')
        fileFor(line.slice(0, colon)).count = Number(line.slice(colon + 1))
        break
      }
      case 'content': {
        const message = JSON.parse(line) as {
          type: string
          data: { path?: JsonText; lines?: JsonText; line_number?: number }
        }
        if (message.type !== 'match' && message.type !== 'context') break
        const file = fileFor(textOf(message.data.path))
        const texts = textOf(message.data.lines).split('\n')
        if (texts[texts.length - 1] === '') texts.pop()
        const first = message.data.line_number ?? 0
        const printed: GrepLine[] = texts.map((text, index) => ({
          number: first + index,
          text,
          match: message.type === 'match',
        }))
        file.lines.push(...printed)
        if (message.type === 'match') file.count += texts.length
        break
      }
      default: {
        const never: never = query.mode
        return never
      }
    }
  }
  return { ok: true, files: [...files.values()].sort(byPath) }
}

/** Whether a path is a folder (false when missing). */
export async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory()
  } catch {
    return false
  }
}

/** Orders results by path (ripgrep's output order is not stable: it searches in parallel). */
export function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0
}
