import { normalizePath, resolvePath } from '../paths/normalize.js'
import type { Target } from './target.js'
import type { ShellRedirect, ShellWord } from './types.js'
import type { EffectiveCommand } from './unwrap.js'

const HARMLESS_TARGETS = new Set([
  '/dev/null',
  '/dev/stdout',
  '/dev/stderr',
  '/dev/tty',
  '/dev/fd/1',
  '/dev/fd/2',
])

/** Paths that alias other files (a process's cwd, root, descriptors) or print another process's memory. */
const ALIASING = /^\/proc\/(?:self|thread-self|\d+)(?:\/|$)|^\/dev\/fd\/(?:[3-9]|\d\d)/

/** The absolute path a literal word names from `cwd` (`~` is `home`). */
export function resolveWord(word: ShellWord, cwd: string, home: string): string {
  if (word.tilde) return resolvePath(cwd, word.value, home)
  return word.value.startsWith('/') ? normalizePath(word.value) : normalizePath(`${cwd}/${word.value}`)
}

/** The file a word names, as far as the line shows. */
export function targetOf(word: ShellWord, cwd: string | undefined, home: string): Target {
  if (word.literal && (cwd !== undefined || word.value.startsWith('/') || word.tilde)) {
    const path = resolveWord(word, cwd ?? '/', home)
    // `/proc/self/cwd/.env`, `/proc/1/root/…`, `/dev/fd/3`: another name for any file.
    if (ALIASING.test(path)) return { kind: 'unknown', text: path }
    return { kind: 'path', path }
  }
  if (word.glob && !/[$`]/.test(word.value) && (cwd !== undefined || word.value.startsWith('/'))) {
    const fixed: string[] = []
    for (const segment of word.value.split('/')) {
      if (/[*?[\]{}]/.test(segment)) break
      fixed.push(segment)
    }
    const prefix = fixed.join('/') || (word.value.startsWith('/') ? '/' : '.')
    const base = resolveWord({ ...word, value: prefix }, cwd ?? '/', home)
    return { kind: 'glob', base, pattern: word.value }
  }
  return { kind: 'unknown', text: word.value }
}

/** The files a command's redirections read and write (`/dev/null` and descriptor copies aside). */
export function redirectTargets(redirects: ShellRedirect[], cwd: string | undefined, home: string) {
  const reads: Target[] = []
  const writes: Target[] = []
  for (const redirect of redirects) {
    const value = redirect.target.value
    switch (redirect.op) {
      case '<<':
      case '<<-':
      case '<<<':
        break
      case '>&':
      case '<&':
        // `2>&1`, `>&-` duplicate or close descriptors; `>&file` is `&>file`.
        if (/^(\d+-?|-)$/.test(value)) break
        if (redirect.op === '<&') reads.push(targetOf(redirect.target, cwd, home))
        else if (!HARMLESS_TARGETS.has(value)) writes.push(targetOf(redirect.target, cwd, home))
        break
      case '<':
        reads.push(targetOf(redirect.target, cwd, home))
        break
      case '>':
      case '>>':
      case '>|':
      case '&>':
      case '&>>':
      case '<>':
        if (redirect.op === '<>') reads.push(targetOf(redirect.target, cwd, home))
        if (!(redirect.target.literal && HARMLESS_TARGETS.has(value)))
          writes.push(targetOf(redirect.target, cwd, home))
        break
      default: {
        const unreachable: never = redirect.op
        return unreachable
      }
    }
  }
  return { reads, writes }
}

/** Literal operands read as paths, for a command whose use of them is unknown. */
export function mentionsOf(command: EffectiveCommand, cwd: string | undefined, home: string): Target[] {
  const mentions: Target[] = []
  for (const word of command.words.slice(1)) {
    if (!word.literal) continue
    const candidates = [word.value]
    const eq = word.value.indexOf('=')
    if (eq >= 0) candidates.push(word.value.slice(eq + 1))
    for (const candidate of [...candidates])
      if (candidate.startsWith('@')) candidates.push(candidate.slice(1))
    for (const candidate of candidates) {
      if (candidate === '' || candidate.startsWith('-')) continue
      const target = targetOf({ ...word, value: candidate, tilde: candidate.startsWith('~') }, cwd, home)
      if (target.kind === 'path') mentions.push(target)
    }
  }
  return mentions
}
