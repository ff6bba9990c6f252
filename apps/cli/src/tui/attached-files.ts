import type { Message } from '@z-engine/protocol'

/** A file an `@path` mention attached to a prompt, as the transcript shows it: one line, not its text. */
export interface AttachedFile {
  path: string
  lines: number
}

const ATTACHED = /^<file path="([^"\n]*)">\n([\s\S]*)\n<\/file>$/

/**
 * The files a user message's `@path` mentions attached (the text blocks after the prompt that
 * `attachMentionedFiles` made), with their line counts: the transcript shows "Read <path> (N lines)"
 * while the model gets the whole text.
 */
export function attachedFiles(message: Message): AttachedFile[] {
  if (message.role !== 'user') return []
  return message.content.slice(1).flatMap((block) => {
    if (block.type !== 'text') return []
    const match = ATTACHED.exec(block.text)
    if (match === null) return []
    const body = match[2]!.replace(/\n$/, '')
    return [{ path: match[1]!, lines: body === '' ? 0 : body.split('\n').length }]
  })
}

/** The line under a prompt for one attached file, as Claude Code words it. */
export function attachedFileLine(file: AttachedFile): string {
  return `Read ${file.path} (${file.lines} line${file.lines === 1 ? '' : 's'})`
}
