import { type Action, resolvePath } from '@z-engine/policy'
import type { ActionCtx } from './ctx.js'

/**
 * The one mapping from a tool call's raw input to the Action the policy decides on (each built-in
 * tool's `action()` delegates here, and `z-engine permissions check` uses it too, so the two can
 * never disagree). Input may be unvalidated: anything malformed maps to an action at least as
 * strict as the worst the call could do (a Write without a string `file_path` writes the project
 * root; a Bash without a string `command` is an unknown state-changing call).
 */
export function actionFor(toolName: string, input: unknown, ctx: ActionCtx): Action {
  const fields: Record<string, unknown> = isRecord(input) ? input : {}
  const path = (value: unknown, fallback: string): string =>
    typeof value === 'string' && value !== '' ? resolvePath(ctx.cwd, value, ctx.home) : fallback
  switch (toolName) {
    case 'Read':
      return { type: 'read', paths: [path(fields.file_path, ctx.projectRoot)] }
    case 'Write':
    case 'Edit':
    case 'MultiEdit':
      return { type: 'write', paths: [path(fields.file_path, ctx.projectRoot)] }
    case 'NotebookEdit':
      return { type: 'write', paths: [path(fields.notebook_path ?? fields.file_path, ctx.projectRoot)] }
    case 'Glob':
    case 'Grep':
      return { type: 'read', paths: searchRoots(fields, ctx) }
    case 'LSP':
      // Claude Code's LSP tool spells it `filePath`.
      return { type: 'read', paths: [path(fields.filePath ?? fields.file_path, ctx.projectRoot)] }
    case 'Bash':
      if (typeof fields.command !== 'string') return { type: 'other', toolName, readOnly: false }
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
      return { type: 'loadSkill', name: typeof name === 'string' ? name.trim().replace(/^\//, '') : '' }
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
      return { type: 'other', toolName, readOnly: fields.action === 'list' }
    case 'JobKill':
      return { type: 'other', toolName, readOnly: false }
    default:
      return mcpOrOther(toolName)
  }
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
    fields.path === undefined || fields.path === null || fields.path === ''
      ? ctx.cwd
      : typeof fields.path === 'string'
        ? resolvePath(ctx.cwd, fields.path, ctx.home)
        : ctx.projectRoot
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
