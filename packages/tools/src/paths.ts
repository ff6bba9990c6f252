import { relativeTo, resolvePath } from '@z-engine/policy'
import type { ActionCtx } from './ctx.js'

/**
 * Resolves a path from tool input the way `actionFor` does (so the policy decides on the file the
 * tool touches): `~` against home, relative paths against the agent's cwd, then normalized.
 */
export function resolveInputPath(input: string, ctx: ActionCtx): string {
  return resolvePath(ctx.cwd, input, ctx.home)
}

/** A path for titles and messages: relative to the project when inside it, else absolute. */
export function displayPath(path: string, ctx: ActionCtx): string {
  const relative = relativeTo(path, ctx.projectRoot)
  return relative === undefined || relative === '' ? path : relative
}
