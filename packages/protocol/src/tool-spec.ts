import { anyObject, enums, type Infer, obj, str, tagged, variant } from './schema/builder.js'

/** A JSON Schema object, kept as data (validated with ajv where input arrives). */
export type JsonSchema = { [key: string]: unknown }

/** Schema of {@link ToolSpec}. */
export const ToolSpecSchema = obj({
  name: str({ minLength: 1 }),
  description: str(),
  inputSchema: anyObject(),
})
/** What the model is told about one tool. */
export type ToolSpec = Infer<typeof ToolSpecSchema>

/** Schema of {@link ToolChoice}. */
export const ToolChoiceSchema = tagged([
  variant('auto'),
  variant('any'),
  variant('none'),
  variant('tool', { name: str() }),
])
/** How the model may choose tools on one request. */
export type ToolChoice = Infer<typeof ToolChoiceSchema>

/** Every tool status. */
export const TOOL_STATUSES = ['ok', 'error', 'denied', 'cancelled'] as const
/** Schema of {@link ToolStatus}. */
export const ToolStatusSchema = enums(TOOL_STATUSES)
/** The outcome of one tool call as shown to the user. */
export type ToolStatus = Infer<typeof ToolStatusSchema>
