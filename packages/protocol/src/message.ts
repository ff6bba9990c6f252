import type { ContentBlock } from './content.js'

/** Who spoke. System text lives in the request's system sections, never in messages. */
export type Role = 'user' | 'assistant'

/**
 * A provider-neutral message. `id` is stable across the session (journal, rewind, compaction and
 * task views refer to messages by it).
 */
export interface Message {
  id: string
  role: Role
  content: ContentBlock[]
}
