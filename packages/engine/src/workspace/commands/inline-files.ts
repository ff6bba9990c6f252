import { open, realpath, stat } from 'node:fs/promises'
import { isAbsolute, join, relative, resolve } from 'node:path'

/** Largest file inlined by `@path` (spec 000 "Commands"). */
export const MAX_INLINE_FILE_BYTES = 256 * 1024
/** Largest total inlined by one command. */
export const MAX_INLINE_TOTAL_BYTES = 1024 * 1024

/** What `@path` inlining needs from the session. */
export interface InlineFileDeps {
  projectRoot: string
  home?: string
  /** Whether the policy lets the model read this absolute path (with the turn's granted rules). */
  canRead(path: string): boolean | Promise<boolean>
  /**
   * What the user typed (a command's arguments): only an `@path` written there is reported when no
   * such file exists. A template's own `@word` (`@pytest.fixture`, `@Component`) that names no
   * file is text, never a mention.
   */
  typed?: string
}

/** Files inlined, in order of first mention, and notices about the ones left out. */
export interface InlinedFiles {
  files: Array<{ path: string; displayPath: string; content: string }>
  notices: string[]
}

// `@` at the start or after whitespace/`(`; `@agent-…` mentions are not paths.
const REFERENCE = /(?:^|[\s(])@(?!agent-)((?:[^\s`'"()<>]|\\ )+)/g

/**
 * Reads the files a template names with `@path` (relative to the project root, absolute, or `~/…`).
 * Tokens that are not existing files are left alone (they are often decorators or handles); one the
 * user typed (`typed`) that looks like a path (`src/x`, `notes.md`) is reported missing; files
 * the policy refuses, binaries, and files past the size limits are left out with a notice. Never throws.
 */
export async function inlineFileReferences(text: string, deps: InlineFileDeps): Promise<InlinedFiles> {
  const result: InlinedFiles = { files: [], notices: [] }
  const seen = new Set<string>()
  let total = 0
  for (const match of text.matchAll(REFERENCE)) {
    const token = match[1]!.replace(/\\ /g, ' ')
    const candidates = [token, token.replace(/[.,;:!?]+$/, '')]
    let found = false
    for (const candidate of new Set(candidates)) {
      const path = absolutePath(candidate, deps)
      if (path === undefined || seen.has(path)) continue
      const info = await stat(path).catch(() => undefined)
      if (info === undefined || !info.isFile()) continue
      found = true
      seen.add(path)
      const displayPath = displayPathOf(path, deps.projectRoot)
      // A link must not launder a denied target: both the name and what it points to must be readable.
      const target = await realpath(path).catch(() => path)
      if (!(await deps.canRead(path)) || (target !== path && !(await deps.canRead(target)))) {
        result.notices.push(`@${displayPath} was not inlined: the permissions do not allow reading it.`)
        break
      }
      if (info.size > MAX_INLINE_FILE_BYTES) {
        result.notices.push(
          `@${displayPath} was not inlined: it is ${kib(info.size)}, over the ${kib(MAX_INLINE_FILE_BYTES)} limit per file.`,
        )
        break
      }
      if (total + info.size > MAX_INLINE_TOTAL_BYTES) {
        result.notices.push(
          `@${displayPath} was not inlined: the command already inlines ${kib(total)} of the ${kib(MAX_INLINE_TOTAL_BYTES)} allowed.`,
        )
        break
      }
      const content = await readText(path)
      if (content === undefined) {
        result.notices.push(`@${displayPath} was not inlined: it is not a text file.`)
        break
      }
      total += info.size
      result.files.push({ path, displayPath, content })
      break
    }
    const bare = candidates[1]!
    if (!found && looksLikePath(bare) && !seen.has(bare) && typedMention(deps.typed, bare)) {
      seen.add(bare)
      result.notices.push(`@${bare} was not inlined: there is no such file.`)
    }
  }
  return result
}

/** Whether the user's own text holds `@token` as a mention (at its start or after whitespace/`(`). */
function typedMention(typed: string | undefined, token: string): boolean {
  if (typed === undefined) return false
  for (const match of typed.matchAll(REFERENCE))
    if (match[1]!.replace(/\\ /g, ' ').replace(/[.,;:!?]+$/, '') === token) return true
  return false
}

/** `src/x`, `./x`, `~/x` or a name with a short extension (`notes.md`); not `@user` or `@Component`. */
function looksLikePath(token: string): boolean {
  return /\//.test(token) || /^[\w.-]+\.[A-Za-z0-9]{1,8}$/.test(token)
}

function absolutePath(token: string, deps: InlineFileDeps): string | undefined {
  if (token === '') return undefined
  if (token.startsWith('~/')) return deps.home === undefined ? undefined : join(deps.home, token.slice(2))
  return isAbsolute(token) ? resolve(token) : resolve(deps.projectRoot, token)
}

function displayPathOf(path: string, projectRoot: string): string {
  const inside = relative(projectRoot, path)
  return inside.startsWith('..') || isAbsolute(inside) ? path : inside
}

async function readText(path: string): Promise<string | undefined> {
  try {
    const handle = await open(path, 'r')
    try {
      const buffer = await handle.readFile()
      // A NUL byte in the first 8 KiB is the usual sign of a binary file.
      if (buffer.subarray(0, 8192).includes(0)) return undefined
      return buffer.toString('utf8')
    } finally {
      await handle.close()
    }
  } catch {
    return undefined
  }
}

function kib(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KiB`
}
