/** The engine's built-in commands: answered by the session core without the model (spec 000 "Commands"). */
export const ENGINE_BUILTIN_COMMANDS = [
  { name: 'compact', description: 'Summarize older history now to free context', argumentHint: '[focus]' },
  { name: 'context', description: 'Show how full the context window is, by prompt layer' },
  { name: 'cost', description: "Show this session's token usage and cost" },
  { name: 'status', description: 'Show the model, mode, project, settings files and services' },
  {
    name: 'remember',
    description:
      "Add a note to the project's AGENTS.md (or --local, --user; --ask asks) and reload instructions",
    argumentHint: '[--project|--local|--user|--ask] <note>',
  },
  { name: 'model', description: 'Show or change the model', argumentHint: '[model]' },
  {
    name: 'mode',
    description: 'Show or change the permission mode',
    argumentHint: '[default|acceptEdits|plan|bypass]',
  },
  {
    name: 'effort',
    description: 'Show or change the reasoning effort',
    argumentHint: '[low|medium|high|max]',
  },
  { name: 'mcp', description: 'Show MCP servers and their tools' },
  {
    name: 'plugin',
    description: 'List, add and remove marketplaces; install, uninstall, enable and disable plugins',
    argumentHint:
      '[marketplace add|list|show|remove|update] [show|install|uninstall|enable|disable <plugin>@<marketplace>]',
  },
  { name: 'todos', description: 'Show the todo list' },
  { name: 'decisions', description: 'Show the decision features and their latest decisions' },
  { name: 'full-history', description: 'Bring back the earlier messages a task view left out' },
  { name: 'doctor', description: 'Check the installation, providers, tools and settings' },
  { name: 'add-dir', description: 'Let the agent work in another folder', argumentHint: '<path> [--save]' },
  {
    name: 'jobs',
    description: "List background jobs, show one's output or stop it",
    argumentHint: '[output|stop <id>]',
  },
  {
    name: 'worktrees',
    description: "List worktree agents' waiting changes; show, apply or discard them",
    argumentHint: '[diff|apply|discard <id>]',
  },
  {
    name: 'reload',
    description: 'Re-read settings, instructions, agents, skills, commands, plugins and MCP servers now',
  },
] as const

/** The name of an engine built-in command. */
export type EngineBuiltinName = (typeof ENGINE_BUILTIN_COMMANDS)[number]['name']

const NAMES: ReadonlySet<string> = new Set(ENGINE_BUILTIN_COMMANDS.map((command) => command.name))

/** Built-ins that leave the conversation alone, so they run while a turn does (stop a job, apply a worktree). */
const WHILE_BUSY: ReadonlySet<string> = new Set<EngineBuiltinName>(['jobs', 'worktrees'])

/** Whether a command may run while a turn is running. */
export function runsWhileBusy(name: string): boolean {
  return WHILE_BUSY.has(name)
}

/** Whether a command name is an engine built-in (custom commands can never shadow those). */
export function isEngineBuiltin(name: string): name is EngineBuiltinName {
  return NAMES.has(name)
}
