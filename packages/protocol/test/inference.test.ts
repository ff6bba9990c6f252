/**
 * Type-level contracts of the schema builder, checked by `tsc --noEmit` (this file is in the
 * package's tsconfig): if inference ever degraded to `any`, the `@ts-expect-error` lines would stop
 * erroring and the typecheck would fail.
 */
import { describe, expectTypeOf, it } from 'vitest'
import type {
  ApprovalDecision,
  Command,
  CommandOf,
  EngineEvent,
  LogRecordOf,
  Settings,
  SettingsLayer,
  WorktreeState,
} from '../src/index.js'

describe('inferred types', () => {
  it('infers discriminated unions with required and optional fields', () => {
    expectTypeOf<CommandOf<'rewind'>>().toEqualTypeOf<{
      type: 'rewind'
      messageId: string
      scope: 'code' | 'conversation' | 'both'
      dryRun?: boolean
      includeEdited?: boolean
      only?: string[]
    }>()
    expectTypeOf<ApprovalDecision>().toEqualTypeOf<
      | { type: 'allowOnce' }
      | { type: 'allowSession'; rule: string }
      | { type: 'allowProject'; rule: string }
      | { type: 'deny'; feedback?: string }
    >()
    expectTypeOf<Extract<WorktreeState, { type: 'conflicted' }>>().toEqualTypeOf<{
      type: 'conflicted'
      conflicts: string[]
      path?: string
      branch?: string
    }>()
    expectTypeOf<Command['type']>().toEqualTypeOf<
      | 'submit'
      | 'steer'
      | 'cancel'
      | 'interrupt'
      | 'resolveApproval'
      | 'answerQuestion'
      | 'resolvePlan'
      | 'setMode'
      | 'setModel'
      | 'setTitle'
      | 'runCommand'
      | 'runShell'
      | 'trustWorkspace'
      | 'resolveSuggestion'
      | 'includeFullHistory'
      | 'rewind'
      | 'undoRewind'
      | 'compact'
      | 'killJob'
      | 'applyAgentChanges'
      | 'discardAgentChanges'
      | 'reloadSettings'
    >()
  })

  it('rejects wrong shapes', () => {
    // @ts-expect-error decision is required
    const missing: Command = { type: 'resolveApproval', approvalId: 'a' }
    // @ts-expect-error unknown event type
    const unknownEvent: EngineEvent = { type: 'textChunk', id: 'p', delta: 'x' }
    // @ts-expect-error exactOptionalPropertyTypes: optional means absent, not undefined
    const explicitUndefined: LogRecordOf<'usageUpdated'> = {
      type: 'usageUpdated',
      id: 'r',
      at: 'x',
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      cost: { inputUsd: 0, outputUsd: 0, cacheReadUsd: 0, cacheWriteUsd: 0, totalUsd: 0 },
      sessionUsage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      sessionCost: { inputUsd: 0, outputUsd: 0, cacheReadUsd: 0, cacheWriteUsd: 0, totalUsd: 0 },
      model: 'm',
      turnId: undefined,
    }
    expectTypeOf([missing, unknownEvent, explicitUndefined]).not.toBeAny()
  })

  it('makes keys with defaults required in Settings, optional in SettingsLayer', () => {
    expectTypeOf<Settings['agents']>().toEqualTypeOf<{
      max_concurrent: number
      max_depth: number
      max_turns: number
      session_cost_cap_usd: number
    }>()
    expectTypeOf<Settings['model']['name']>().toEqualTypeOf<string | undefined>()
    expectTypeOf<Settings['shell']['sandbox']['enabled']>().toEqualTypeOf<boolean>()
    expectTypeOf<SettingsLayer['agents']>().toEqualTypeOf<
      | { max_concurrent?: number; max_depth?: number; max_turns?: number; session_cost_cap_usd?: number }
      | undefined
    >()
  })
})
