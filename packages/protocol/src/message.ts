import { ContentBlockSchema } from './content.js'
import { arr, enums, type Infer, obj, str } from './schema/builder.js'

/** Schema of {@link Role}. */
export const RoleSchema = enums(['user', 'assistant'])
/** Who spoke. System text lives in the request's system sections, never in messages. */
export type Role = Infer<typeof RoleSchema>

/** Schema of {@link Message}. */
export const MessageSchema = obj({
  id: str({ minLength: 1 }),
  role: RoleSchema,
  content: arr(ContentBlockSchema),
})
/**
 * A provider-neutral message. `id` is stable across the session (journal, rewind, compaction and
 * task views refer to messages by it).
 */
export type Message = Infer<typeof MessageSchema>

/** Where a message came from, so replay can label it (the model sees only its content). */
export const MessageOriginSchema = enums([
  'prompt',
  'command',
  'assistant',
  'toolResults',
  'steering',
  'summary',
  'reminder',
])
/** Where a message came from: a typed prompt, a prompt command, a model answer, tool results, … */
export type MessageOrigin = Infer<typeof MessageOriginSchema>
