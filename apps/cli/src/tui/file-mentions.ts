import { open, realpath, stat } from 'node:fs/promises'
import { isAbsolute, relative, resolve } from 'node:path'

/** Largest file one `@path` attaches. */
export const MAX_ATTACHED_FILE_BYTES = 256 * 1024

/** The files a prompt's `@path` mentions attach, and why any were left out. */
export interface MentionedFiles {
  attachments: Array<{ type: 'text'; text: string }>
  notices: string[]
}

// `@` at the start or after whitespace; `@agent-…` mentions name subagents, not files.
const MENTION = /(?:^|\s)@(?!agent-)([^\s]+)/g

/**
 * Reads the project files a prompt mentions with `@path` (as `@` completion inserts them) and
 * returns them as text attachments. Tokens that are not files are left as text; files outside the
 * project, binaries and files past {@link MAX_ATTACHED_FILE_BYTES} are left out with a notice.
 */
export async function attachMentionedFiles(projectRoot: string, text: string): Promise<MentionedFiles> {
  const result: MentionedFiles = { attachments: [], notices: [] }
  const seen = new Set<string>()
  for (const match of text.matchAll(MENTION)) {
    const token = match[1]!.replace(/[.,;:!?)]+$/, '')
    const absolute = isAbsolute(token) ? token : resolve(projectRoot, token)
    const info = await stat(absolute).catch(() => undefined)
    if (!info?.isFile()) continue
    const real = await realpath(absolute).catch(() => absolute)
    const shown = relative(projectRoot, real)
    if (shown.startsWith('..') || isAbsolute(shown)) {
      result.notices.push(`@${token} is outside the project and was not attached.`)
      continue
    }
    if (seen.has(real)) continue
    seen.add(real)
    if (info.size > MAX_ATTACHED_FILE_BYTES) {
      result.notices.push(
        `@${shown} is ${Math.round(info.size / 1024)} KiB (over ${MAX_ATTACHED_FILE_BYTES / 1024} KiB) and was not attached; the agent can read it with its tools.`,
      )
      continue
    }
    const handle = await open(real, 'r')
    let content: Buffer
    try {
      content = await handle.readFile()
    } finally {
      await handle.close()
    }
    if (content.includes(0)) {
      result.notices.push(`@${shown} looks binary and was not attached.`)
      continue
    }
    result.attachments.push({
      type: 'text',
      text: `<file path="${shown}">\n${content.toString('utf8')}\n</file>`,
    })
  }
  return result
}
