/**
 * Which Claude Agent SDK options `query()` honours, which it accepts but cannot honour, and which it
 * does not know: a program that switches its import keeps type-checking and running, and is told
 * (once per query, on `options.stderr` or as a process warning) about every option that changes
 * nothing here, instead of having it dropped without a word.
 */

/** Options that only steer the Claude Code child process, which does not exist here: accepted quietly. */
const PROCESS_ONLY = new Set([
  'executable',
  'executableArgs',
  'extraArgs',
  'pathToClaudeCodeExecutable',
  'spawnClaudeCodeProcess',
  // Bypass mode needs no second switch in the engine; the mode itself is honoured.
  'allowDangerouslySkipPermissions',
])

/** Options of the Claude Agent SDK the engine does not implement, with what to do instead. */
const NOT_HONOURED: Readonly<Record<string, string>> = {
  agents: 'define subagents as files in .claude/agents/ (or .z-engine/agents/) of the project',
  betas: 'beta headers are not sent',
  enableFileCheckpointing: 'the engine always checkpoints; rewind with the session API',
  fallbackModel: 'no fallback model is tried; a failed request ends the turn with its error',
  maxBudgetUsd: 'no cost ceiling is enforced; watch total_cost_usd on the result',
  outputFormat: 'structured output is not enforced; parse the result text',
  permissionPromptToolName: 'use canUseTool',
  plugins: 'install plugins with `z-engine plugin install` and enable them in settings',
  resumeSessionAt: 'resume takes the whole session; fork it and rewind with the session API',
  sandbox: 'configure [shell.sandbox] in settings (settingSources must include it)',
  strictMcpConfig: 'only the servers in options.mcpServers and the settings the query reads are used',
  tools: 'the built-in tools are always offered; narrow them with disallowedTools',
}

/** The options `query()` reads. */
const HONOURED = new Set([
  'abortController',
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
])

/** One line per given option that changes nothing here, in the order the options were given. */
export function optionWarnings(options: object): string[] {
  const warnings: string[] = []
  for (const [key, value] of Object.entries(options)) {
    if (value === undefined || HONOURED.has(key) || PROCESS_ONLY.has(key)) continue
    const instead = NOT_HONOURED[key]
    warnings.push(
      instead !== undefined
        ? `options.${key} is not supported by @z-engine/engine/claude-agent-sdk and is ignored: ${instead}.`
        : `options.${key} is not a Claude Agent SDK option @z-engine/engine/claude-agent-sdk knows; it is ignored.`,
    )
  }
  return warnings
}
