/**
 * The `Query` methods of the Claude Agent SDK the engine cannot perform, each refused with what to
 * do instead (a program that calls one learns why, rather than getting a silent no-op), and the
 * SDK's `AbortError`.
 */

/** Thrown from a query's iteration when its `abortController` aborted it (as the Claude Agent SDK does). */
export class AbortError extends Error {
  override readonly name = 'AbortError'
}

/** Query methods that are refused, with what to do instead. */
export const REFUSED_METHODS = {
  setMcpPermissionModeOverride:
    'allow or deny an MCP server’s tools with allowedTools / disallowedTools rules',
  setMaxThinkingTokens: 'pass maxThinkingTokens in the options of the query',
  applyFlagSettings: 'pass settings in the options of the query (allowedTools, permissionMode, …)',
  updateSettings: 'edit the settings files, or pass the options to the next query',
  initializationResult: 'read the system/init message the query yields first',
  reinitialize: 'start a new query (resume: <session id> continues the session)',
  supportedCommands: 'the engine’s commands are not exposed through this entry',
  supportedAgents: 'the init message lists the agents (agents); define them in options.agents',
  getContextUsage: 'read usage and modelUsage on the result message',
  usage_EXPERIMENTAL_MAY_CHANGE_DO_NOT_RELY_ON_THIS_API_YET:
    'read usage and modelUsage on the result message',
  readFile: 'read the file with node:fs',
  reloadPlugins: 'start a new query to load plugins again',
  reloadSkills: 'start a new query to load skills again',
  reloadOutputStyles: 'output styles are not supported',
  accountInfo: 'the engine calls the API with a key, not a Claude account',
  rewindFiles: 'rewind with the engine’s session API (@z-engine/engine)',
  seedReadState: 'the engine tracks reads itself',
  reconnectMcpServer: 'start a new query to reconnect a server',
  toggleMcpServer: 'pass the servers you want in options.mcpServers',
  readMcpResource: 'let the model read it with ReadMcpResource',
  setMcpServers: 'pass the servers in options.mcpServers of a new query',
  stopTask: 'let the model stop it with TaskStop (JobKill)',
  backgroundTasks: 'background jobs are reported through the conversation',
} as const

/** The refused methods as functions that reject with a message naming the method and the way instead. */
export function refusedMethods(): {
  [K in keyof typeof REFUSED_METHODS]: (...args: unknown[]) => Promise<never>
} {
  const methods = {} as Record<string, (...args: unknown[]) => Promise<never>>
  for (const [name, instead] of Object.entries(REFUSED_METHODS)) {
    methods[name] = () =>
      Promise.reject(
        new Error(`Query.${name}() is not supported by @z-engine/engine/claude-agent-sdk: ${instead}.`),
      )
  }
  return methods as { [K in keyof typeof REFUSED_METHODS]: (...args: unknown[]) => Promise<never> }
}
