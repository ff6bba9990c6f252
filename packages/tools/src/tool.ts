import type { Action } from '@z-engine/policy'
import type { JsonSchema, Preview, ToolResultContent } from '@z-engine/protocol'
import type { ToolCtx } from './ctx.js'

/** What `action()` and `title()` need: enough to resolve paths, nothing that does I/O. */
export interface ActionCtx {
  /** The agent's root (the project, or a worktree for worktree agents). */
  projectRoot: string
  /** The agent's persistent shell cwd; relative paths in input resolve against it. */
  cwd: string
  /** The user's home folder, for `~` in input. */
  home: string
}

/** A tool failure the model can read and recover from. `code` is stable; `message` says what to do. */
export interface ToolError {
  code: string
  message: string
}

/** What a successful call returns. */
export interface ToolOutput {
  content: ToolResultContent[]
  /** Absolute paths the call created, changed or deleted (checkpoints, read tracking, verification). */
  changedFiles?: string[]
  /** Structured data for the UI and the engine (never sent to the model). */
  details?: Record<string, unknown>
}

/** A tool call's result: a value, never a throw, across the engine boundary. */
export type ToolResult = { ok: true; output: ToolOutput } | { ok: false; error: ToolError }

/**
 * The contract every tool implements (spec 000 "Tools contract"). `Input` is the parsed JSON object
 * after schema validation; `action` must also be safe on unvalidated input.
 */
export interface Tool<Input = Record<string, unknown>> {
  readonly name: string
  /** The description the model sees, from `@z-engine/prompts`. */
  description(): string
  readonly inputSchema: JsonSchema
  isReadOnly(input: Input): boolean
  /** Defaults to `isReadOnly`; Agent opts in, TodoWrite, AskUserQuestion and ExitPlanMode opt out. */
  isConcurrencySafe(input: Input): boolean
  /** The most specific Action; conservative for malformed input. */
  action(input: Input, ctx: ActionCtx): Action
  /** A short label such as `Edit src/main.ts`. */
  title(input: Input, ctx: ActionCtx): string
  /** The approval card's diff or command. */
  preview(input: Input, ctx: ToolCtx): Promise<Preview | undefined>
  /** Runs the call; never throws (an unexpected exception is the engine's bug to report). */
  call(input: Input, ctx: ToolCtx, signal: AbortSignal): Promise<ToolResult>
}
