import { stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import type { HookEventInputs, HookOutcome, HookRunResult } from '../workspace/hooks/types.js'

/** What WorktreeCreate hooks did: nothing configured, a folder made, or a failure to launch on. */
export type WorktreeHookCreate =
  | { type: 'none' }
  | { type: 'created'; path: string }
  | { type: 'failed'; message: string }

/** What WorktreeRemove hooks did: nothing configured, the worktree removed, or a failure to report. */
export type WorktreeHookRemove = { type: 'none' } | { type: 'removed' } | { type: 'failed'; message: string }

type WorktreeEvent = 'WorktreeCreate' | 'WorktreeRemove'

/** What the worktree hooks need of the session's hook context. */
export interface WorktreeHookContext {
  hasHooks(event: WorktreeEvent): boolean
  /** Runs the event's hooks with the common fields added; warnings are already reported. */
  run<E extends WorktreeEvent>(event: E, fields: HookEventInputs[E]): Promise<HookOutcome>
  /** Where a relative path a hook prints resolves (the hooks' working directory). */
  projectDir: string
}

// ANSI colour and cursor sequences a hook's tools may print around the path.
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g

/** A hook's path as Claude Code reads it: `hookSpecificOutput.worktreePath`, else its last non-empty stdout line. */
function printedPath(result: HookRunResult): string | undefined {
  if (result.output !== undefined) return result.output.worktreePath?.trim() || undefined
  const lines = result.stdout
    .replace(ANSI, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
  return lines.at(-1)
}

function failureText(result: HookRunResult): string {
  const said = (result.stderr.trim() || result.stdout.trim()).slice(0, 2000)
  const how = result.status === 'timeout' ? 'timed out' : `exited ${result.exitCode ?? result.status}`
  return `\`${result.hook.command}\` ${how}${said !== '' ? `: ${said}` : ' with no output'}`
}

async function isFolder(path: string): Promise<boolean> {
  return stat(path).then(
    (found) => found.isDirectory(),
    () => false,
  )
}

/**
 * WorktreeCreate and WorktreeRemove as Claude Code runs them: when configured they replace the
 * engine's own `git worktree add` and removal. The first successful hook's path wins; with none, the
 * failing hooks' output is the launch error.
 */
export function worktreeHooks(context: WorktreeHookContext): {
  worktreeCreate(name: string): Promise<WorktreeHookCreate>
  worktreeRemove(worktreePath: string): Promise<WorktreeHookRemove>
} {
  return {
    async worktreeCreate(name) {
      if (!context.hasHooks('WorktreeCreate')) return { type: 'none' }
      const outcome = await context.run('WorktreeCreate', { name })
      const made = outcome.results
        .filter((result) => result.status === 'success')
        .map(printedPath)
        .find((path) => path !== undefined)
      if (made === undefined) {
        const failed = outcome.results.filter((result) => result.status !== 'success').map(failureText)
        if (failed.length > 0)
          return { type: 'failed', message: `WorktreeCreate hook failed: ${failed.join('; ')}` }
        if (outcome.results.length === 0)
          return {
            type: 'failed',
            message: 'WorktreeCreate hook failed: it is configured but none matched, so no worktree was made',
          }
        return {
          type: 'failed',
          message:
            'WorktreeCreate hook failed: it succeeded but gave no worktree path (a command hook prints the path on stdout; a JSON or function hook returns hookSpecificOutput.worktreePath)',
        }
      }
      const path = resolve(context.projectDir, made)
      if (!(await isFolder(path)))
        return {
          type: 'failed',
          message: `WorktreeCreate hook failed: it printed ${path}, which is not an existing folder; make the hook create the worktree there before it prints the path`,
        }
      return { type: 'created', path }
    },
    async worktreeRemove(worktreePath) {
      if (!context.hasHooks('WorktreeRemove')) return { type: 'none' }
      const outcome = await context.run('WorktreeRemove', { worktreePath })
      const failed = outcome.results.filter((result) => result.status !== 'success')
      // Claude Code: a failed hook that left nothing behind still removed the worktree.
      if (failed.length === 0 || !(await isFolder(worktreePath))) return { type: 'removed' }
      return { type: 'failed', message: `WorktreeRemove hook failed: ${failed.map(failureText).join('; ')}` }
    },
  }
}
