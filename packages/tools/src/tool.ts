import type { Action } from '@z-engine/policy'
import type { JsonSchema, Preview } from '@z-engine/protocol'
import type { ActionCtx, ToolCtx } from './ctx.js'
import type { ToolResult } from './tool-result.js'

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
  /**
   * Why the call would fail as given, found without side effects (an Edit whose old_string is not
   * in the file), or undefined. A call that would be asked about fails at once instead: the user is
   * never asked to approve what cannot run.
   */
  check?(input: Input, ctx: ToolCtx): Promise<string | undefined>
  /**
   * A call made of parts the gate decides one by one (Verify's checks), or undefined: a denied part
   * is left out and the rest run; an asked part the user denies is left out, not the whole call.
   */
  parts?(input: Input, ctx: ActionCtx): ToolParts<Input> | undefined
  /** Runs the call; never throws (an unexpected exception is the engine's bug to report). */
  call(input: Input, ctx: ToolCtx, signal: AbortSignal): Promise<ToolResult>
}

/** The parts of one call, each decided on its own (see {@link Tool.parts}). */
export interface ToolParts<Input = Record<string, unknown>> {
  parts: Array<{ id: string; title: string; action: Action }>
  /** The call's input narrowed to these parts. */
  only(ids: readonly string[]): Input
}
