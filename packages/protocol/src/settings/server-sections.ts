import { anyObject, arr, bool, enums, type Infer, int, obj, record, str } from '../schema/builder.js'

/** Schema of {@link McpServerSettings}. */
export const McpServerSettingsSchema = obj(
  {},
  {
    type: enums(['stdio', 'http', 'sse'], { description: 'Inferred: `command` means stdio, `url` http.' }),
    command: str({ minLength: 1 }),
    args: arr(str()),
    env: record(str()),
    cwd: str(),
    url: str({ minLength: 1 }),
    headers: record(str()),
    enabled: bool(),
    timeout_ms: int({ minimum: 1 }),
  },
)
/** One MCP server (`[mcp.servers.<name>]`). */
export type McpServerSettings = Infer<typeof McpServerSettingsSchema>

/** Schema of one language server (`[lsp.servers.<name>]`). */
export const LspServer = obj(
  { command: str({ minLength: 1 }) },
  {
    args: arr(str()),
    extensions: arr(str({ description: 'File extensions without the dot.' })),
    initialization_options: anyObject({ description: "Sent as the server's `initializationOptions`." }),
  },
)
