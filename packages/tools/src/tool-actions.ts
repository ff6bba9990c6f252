import { type Action, resolvePath } from '@z-engine/policy'
import type { ActionCtx } from './ctx.js'

/**
 * The one mapping from a tool call's raw input to the Action the policy decides on (each built-in
 * tool's `action()` delegates here, and `z-engine permissions check` uses it too, so the two can
 * never disagree). Input may be unvalidated: a call whose path or command is not a string, or
 * is missing, maps to a `malformed` action, which asks in every mode and is refused in plan mode
 * (never a guess such as "the project root", which acceptEdits would allow).
 */
export function actionFor(toolName: string, input: unknown, ctx: ActionCtx): Action {
  if (!isRecord(input) && PATH_TOOLS.has(toolName))
    return malformed(toolName, 'the input is not a JSON object')
  const fields: Record<string, unknown> = isRecord(input) ? input : {}
  const path = (value: unknown): string | undefined =>
    typeof value === 'string' && value !== '' ? resolvePath(ctx.cwd, value, ctx.home) : undefined
  switch (toolName) {
    case 'Read':
    case 'Write':
    case 'Edit':
    case 'MultiEdit': {
      const file = path(fields.file_path)
      if (file === undefined) return malformed(toolName, 'file_path must be a non-empty string')
      return { type: toolName === 'Read' ? 'read' : 'write', paths: [file] }
    }
    case 'NotebookEdit': {
      const file = path(fields.notebook_path ?? fields.file_path)
      if (file === undefined) return malformed(toolName, 'notebook_path must be a non-empty string')
      return { type: 'write', paths: [file] }
    }
    case 'Glob':
    case 'Grep': {
      if (typeof fields.pattern !== 'string') return malformed(toolName, 'pattern must be a string')
      if (fields.path !== undefined && fields.path !== null && typeof fields.path !== 'string')
        return malformed(toolName, 'path must be a string')
      return { type: 'read', paths: searchRoots(fields, ctx) }
    }
    case 'LSP': {
      // Claude Code's LSP tool spells it `filePath`; workspaceSymbol names no file.
      const raw = fields.filePath ?? fields.file_path
      if (raw === undefined) return { type: 'read', paths: [ctx.projectRoot] }
      const file = path(raw)
      if (file === undefined) return malformed(toolName, 'filePath must be a non-empty string')
      return { type: 'read', paths: [file] }
    }
    case 'Bash':
      if (typeof fields.command !== 'string') return malformed(toolName, 'command must be a string')
      return fields.run_in_background === true
        ? { type: 'execute', command: fields.command, cwd: ctx.cwd, background: true }
        : { type: 'execute', command: fields.command, cwd: ctx.cwd }
    case 'WebFetch':
      // A missing URL becomes one the policy refuses (not http(s)), never an empty allow.
      return { type: 'fetch', url: typeof fields.url === 'string' ? fields.url : 'invalid:' }
    case 'WebSearch':
      return { type: 'webSearch', query: typeof fields.query === 'string' ? fields.query : '' }
    case 'Agent':
    case 'Task':
      return {
        type: 'startAgent',
        agentType:
          typeof fields.subagent_type === 'string' && fields.subagent_type !== ''
            ? fields.subagent_type
            : 'general',
      }
    case 'Skill': {
      const name = fields.skill ?? fields.command ?? fields.name
      // The tool accepts `/name` as a user would type it; the rule names the skill without the slash.
      const action: Action = {
        type: 'loadSkill',
        name: typeof name === 'string' ? name.trim().replace(/^\//, '') : '',
      }
      // `Skill(deploy prod *)` rules read the arguments; a non-string one is passed as written.
      if (typeof fields.args === 'string' && fields.args.trim() !== '') action.args = fields.args
      return action
    }
    case 'ApplyAgentChanges':
      // Applying (or discarding) a worktree agent's changes rewrites files of the project.
      return { type: 'write', paths: [ctx.projectRoot] }
    case 'ListMcpResources':
    case 'ReadMcpResource':
      return {
        type: 'mcpCall',
        server: typeof fields.server === 'string' ? fields.server : '',
        tool: toolName,
        readOnly: true,
        resource: true,
      }
    case 'TodoWrite':
    case 'AskUserQuestion':
    case 'ExitPlanMode':
    case 'JobOutput':
    case 'LoadMcpTools':
      // Session bookkeeping and conversation: nothing in the workspace changes.
      return { type: 'other', toolName, readOnly: true }
    case 'Verify':
      return verifyAction(fields, ctx)
    case 'JobKill':
      return { type: 'other', toolName, readOnly: false }
    default:
      return mcpOrOther(toolName)
  }
}

/**
 * A Verify run is the shell commands of its checks, decided like Bash (same rules, same sandbox);
 * one check's line also carries its id, so `Verify(<id>)` rules decide it. `list` changes nothing.
 * Unknown checks (or none known yet) map to an action that asks.
 */
function verifyAction(fields: Record<string, unknown>, ctx: ActionCtx): Action {
  if (fields.action === 'list') return { type: 'other', toolName: 'Verify', readOnly: true }
  const lines = verifyCheckLines(fields, ctx)
  if (lines === undefined) return { type: 'other', toolName: 'Verify', readOnly: false }
  const only = lines.length === 1 ? lines[0] : undefined
  if (only !== undefined) return { type: 'execute', command: only.line, cwd: ctx.projectRoot, check: only.id }
  return { type: 'execute', command: lines.map((check) => check.line).join(' ; '), cwd: ctx.projectRoot }
}

/**
 * Each check a Verify run names (all when it names none) with the shell line that runs it (`cd`
 * first when any check runs outside the root); undefined when one is unknown or none is known.
 */
export function verifyCheckLines(
  fields: Record<string, unknown>,
  ctx: ActionCtx,
): Array<{ id: string; command: string; line: string }> | undefined {
  const known = ctx.checks
  const requested = Array.isArray(fields.checks) ? fields.checks : known?.map((check) => check.id)
  const checks = requested?.map((id) => known?.find((check) => check.id === id))
  if (checks === undefined || checks.length === 0) return undefined
  const found = checks.filter((check) => check !== undefined)
  if (found.length < checks.length) return undefined
  const elsewhere = found.some((check) => check.cwd !== ctx.projectRoot)
  return found.map((check) => ({
    id: check.id,
    command: check.command,
    line: elsewhere ? `cd ${shellQuote(check.cwd)} && ${check.command}` : check.command,
  }))
}

function shellQuote(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`
}

/** Tools whose action depends on a path or command in their input. */
const PATH_TOOLS = new Set([
  'Read',
  'Write',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
  'Glob',
  'Grep',
  'LSP',
  'Bash',
])

function malformed(toolName: string, problem: string): Action {
  return { type: 'other', toolName, readOnly: false, malformed: problem }
}

function mcpOrOther(toolName: string): Action {
  if (toolName.startsWith('mcp__')) {
    const rest = toolName.slice('mcp__'.length)
    const split = rest.indexOf('__')
    if (split > 0 && split < rest.length - 2) {
      return { type: 'mcpCall', server: rest.slice(0, split), tool: rest.slice(split + 2) }
    }
  }
  return { type: 'other', toolName, readOnly: false }
}

/**
 * The folders a Glob or Grep may read: its `path` (default: the cwd), plus the fixed prefix of a
 * pattern that is absolute, starts at `~` or climbs with `..` (`../../etc/*` reads outside).
 */
function searchRoots(fields: Record<string, unknown>, ctx: ActionCtx): string[] {
  const root =
    typeof fields.path === 'string' && fields.path !== ''
      ? resolvePath(ctx.cwd, fields.path, ctx.home)
      : ctx.cwd
  const roots = [root]
  for (const key of ['pattern', 'glob'] as const) {
    const pattern = fields[key]
    if (typeof pattern !== 'string') continue
    if (!(pattern.startsWith('/') || pattern.startsWith('~') || pattern.split('/').includes('..'))) continue
    const fixed: string[] = []
    for (const segment of pattern.split('/')) {
      if (/[*?[\]{}!]/.test(segment)) break
      fixed.push(segment)
    }
    const prefix = fixed.join('/') || (pattern.startsWith('/') ? '/' : '.')
    const base = resolvePath(root, prefix, ctx.home)
    if (!roots.includes(base)) roots.push(base)
  }
  return roots
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
