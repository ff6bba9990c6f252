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
