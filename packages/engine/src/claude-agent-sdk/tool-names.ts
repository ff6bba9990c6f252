/**
 * Claude Code's tool names beside the engine's, both ways: a program written for the Claude Agent SDK
 * names `Task`, `BashOutput`, `KillBash`, `LS`… in `allowedTools`, hook matchers and its callbacks;
 * the engine's tools are `Agent`, `JobOutput`, `JobKill`, `Glob`…. Names both share (`Read`, `Bash`,
 * `WebSearch`, `mcp__…`) pass unchanged.
 */

/** Claude Code's names (current and former) → the engine tool that does the same. */
const TO_ENGINE: Readonly<Record<string, string>> = {
  Task: 'Agent',
  BashOutput: 'JobOutput',
  TaskOutput: 'JobOutput',
  KillBash: 'JobKill',
  KillShell: 'JobKill',
  TaskStop: 'JobKill',
  LS: 'Glob',
  NotebookRead: 'Read',
}

/** The engine's names → Claude Code's current name, for what callbacks and messages report. */
const TO_CLAUDE: Readonly<Record<string, string>> = {
  JobOutput: 'TaskOutput',
  JobKill: 'TaskStop',
}

/** The engine's tool for a name a program wrote (`Task` → `Agent`); other names unchanged. */
export function engineToolName(name: string): string {
  return TO_ENGINE[name] ?? name
}

/** The name Claude Code gives an engine tool (`JobKill` → `TaskStop`); other names unchanged. */
export function claudeToolName(name: string): string {
  return TO_CLAUDE[name] ?? name
}

/** A permission rule with its tool named as the engine names it: `Task(explore)` → `Agent(explore)`. */
export function engineRule(rule: string): string {
  const open = rule.indexOf('(')
  const head = open < 0 ? rule : rule.slice(0, open)
  const engine = TO_ENGINE[head.trim()]
  return engine === undefined ? rule : `${engine}${open < 0 ? '' : rule.slice(open)}`
}

/**
 * A hook matcher that also matches the engine's name of every Claude Code name in it: `Task|Bash`
 * becomes `Task|Agent|Bash` (still a list of exact names); in a regular expression each such name
 * becomes `(?:Task|Agent)`.
 */
export function engineMatcher(matcher: string): string {
  if (/^[A-Za-z0-9_|]+$/.test(matcher))
    return matcher
      .split('|')
      .flatMap((name) => (TO_ENGINE[name] === undefined ? [name] : [name, TO_ENGINE[name]]))
      .join('|')
  return matcher.replace(/[A-Za-z]+/g, (word) => {
    const engine = TO_ENGINE[word]
    return engine === undefined ? word : `(?:${word}|${engine})`
  })
}
