/** A JSON Schema object, kept as data (validated with ajv where input arrives). */
export type JsonSchema = { [key: string]: unknown }

/** What the model is told about one tool. */
export interface ToolSpec {
  name: string
  description: string
  inputSchema: JsonSchema
}

/** How the model may choose tools on one request. */
export type ToolChoice =
  | { type: 'auto' }
  | { type: 'any' }
  | { type: 'none' }
  | { type: 'tool'; name: string }

/** The outcome of one tool call as shown to the user. */
export type ToolStatus = 'ok' | 'error' | 'denied' | 'cancelled'
