/**
 * Which Claude Agent SDK options `query()` honours, which it cannot honour, and which it does not
 * know: a program that switches its import keeps type-checking; an option the engine cannot honour
 * is refused (the query throws an error naming it and what to do instead), and an unknown key is
 * reported once per query (on `options.stderr` or as a process warning), never dropped without a word.
 */

/** Options that only steer the Claude Code child process, which does not exist here: accepted quietly. */
const PROCESS_ONLY = new Set([
  'executable',
  'executableArgs',
  'extraArgs',
  'pathToClaudeCodeExecutable',
  'spawnClaudeCodeProcess',
  'debug',
  'debugFile',
  'loadTimeoutMs',
  'mcpServersDelivery',
  'pluginDelivery',
  // Bypass mode needs no second switch in the engine; the mode itself is honoured.
  'allowDangerouslySkipPermissions',
])

/** Options of the Claude Agent SDK the engine does not implement, with what to do instead. */
const NOT_HONOURED: Readonly<Record<string, string>> = {
  betas: 'beta headers are not sent',
  enableFileCheckpointing: 'the engine always checkpoints; rewind with the session API',
  maxBudgetUsd: 'no cost ceiling is enforced; watch total_cost_usd on the result',
  outputFormat: 'structured output is not enforced; parse the result text',
  permissionPromptToolName: 'use canUseTool',
  plugins: 'install plugins with `z-engine plugin install` and enable them in settings',
  resumeSessionAt: 'resume takes the whole session; fork it and rewind with the session API',
  sandbox: 'configure [shell.sandbox] in settings (settingSources must include it)',
  strictMcpConfig: 'only the servers in options.mcpServers and the settings the query reads are used',
  tools: 'the built-in tools are always offered; narrow them with disallowedTools',
  agent: 'the main agent is the engine’s; define subagents as agent files',
  projectConfigRoot: 'the project is options.cwd',
  toolAliases: 'Claude Code’s tool names are mapped already (Task → Agent, BashOutput → JobOutput, …)',
  toolConfig: 'configure tools in the engine’s settings files',
  onElicitation: 'MCP elicitation is not supported',
  onUserDialog: 'use canUseTool',
  supportedDialogKinds: 'use canUseTool',
  perTaskStopAffordance: 'background jobs are stopped with TaskStop (JobKill)',
  persistSession: 'sessions are always kept in the engine’s data folder',
  sessionStore: 'sessions are kept by the engine’s store',
  sessionStoreFlush: 'sessions are kept by the engine’s store',
  includeHookEvents: 'hook activity is not reported as messages',
  forwardSubagentText: 'subagents’ messages are not reported',
  verbatimPrompts: 'prompts are sent as given already',
  thinking: 'use maxThinkingTokens',
  effort: 'use maxThinkingTokens',
  taskBudget: 'no budget is enforced; watch total_cost_usd on the result',
  planModeInstructions: 'plan mode uses the engine’s instructions',
  permissionPrompts: 'use canUseTool',
  promptSuggestions: 'prompt suggestions are not produced',
  agentProgressSummaries: 'subagents’ progress is not summarised',
  sessionId: 'the engine chooses session ids; read session_id from the init message',
  resumeDropsTurn: 'resume takes the whole session',
  settings: 'write the settings to the project’s .claude/settings.json or the engine’s settings files',
  managedSettings: 'managed settings are read from their files',
  skills: 'put skills in .claude/skills/ of the project',
}

/** Options whose given value is the Claude Agent SDK's default, which is what the engine does: accepted quietly. */
const DEFAULT_VALUES: Readonly<Record<string, unknown>> = {
  persistSession: true,
  includeHookEvents: false,
  forwardSubagentText: false,
  verbatimPrompts: false,
  promptSuggestions: false,
  agentProgressSummaries: false,
  strictMcpConfig: false,
  enableFileCheckpointing: false,
}

/** The options `query()` reads. */
const HONOURED = new Set([
  'abortController',
  'agents',
  'fallbackModel',
  'additionalDirectories',
  'allowedTools',
  'canUseTool',
  'continue',
  'cwd',
  'disallowedTools',
  'env',
  'forkSession',
  'hooks',
  'includePartialMessages',
  'maxThinkingTokens',
  'maxTurns',
  'mcpServers',
  'model',
  'permissionMode',
  'resume',
  'settingSources',
  'stderr',
  'systemPrompt',
  'title',
])

/** The error for the options given that the engine cannot honour, or undefined when there are none. */
export function refusedOptions(options: object): Error | undefined {
  const lines = Object.entries(options)
    .filter(
      ([key, value]) =>
        value !== undefined &&
        NOT_HONOURED[key] !== undefined &&
        !(key in DEFAULT_VALUES && DEFAULT_VALUES[key] === value),
    )
    .map(([key]) => `options.${key}: ${NOT_HONOURED[key]}`)
  if (lines.length === 0) return undefined
  return new Error(
    `@z-engine/engine/claude-agent-sdk cannot honour ${lines.length === 1 ? 'this option' : 'these options'}; remove ${lines.length === 1 ? 'it' : 'them'} or do this instead:\n  ${lines.join('\n  ')}`,
  )
}

/** One line per given key that is no Claude Agent SDK option, in the order the options were given. */
export function optionWarnings(options: object): string[] {
  const warnings: string[] = []
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || HONOURED.has(key) || PROCESS_ONLY.has(key) || NOT_HONOURED[key] !== undefined)
      continue
    warnings.push(
      `options.${key} is not a Claude Agent SDK option @z-engine/engine/claude-agent-sdk knows; it is ignored.`,
    )
  }
  return warnings
}
