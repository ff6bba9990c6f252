import type { ToolResultContent } from '@z-engine/protocol'

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
  /**
   * Whether the call turned out to change the project, when the tool knows better than its
   * `isReadOnly` classifier (an Agent call whose subagent only read): overrides it for the turn's
   * "changed" mark. `changedFiles` still count.
   */
  mutated?: boolean
}

/** A tool call's result: a value, never a throw, across the engine boundary. */
export type ToolResult = { ok: true; output: ToolOutput } | { ok: false; error: ToolError }
