/**
 * Type tests for the embedding API: `expectTypeOf` assertions the package's typecheck compiles
 * (`tsc --noEmit` includes `test/`), so a change to a key public type fails the build, not only
 * the `api/index.api.txt` snapshot. The runtime half only proves the file loads.
 */
import { describe, expectTypeOf, it } from 'vitest'
import { z } from 'zod'
import {
  defineTool,
  Engine,
  type EngineError,
  type EngineEvent,
  type EngineOptions,
  type EventEnvelope,
  type EventOf,
  type EventType,
  type OpenSessionOptions,
  type PermissionMode,
  run,
  type Session,
  type ToolExecuteResult,
  type ToolInputOf,
  type TurnHandle,
  type TurnOutcome,
  type TurnResult,
} from '../src/index.js'

describe('embedding API types', () => {
  it('Engine.create takes optional EngineOptions and resolves to an Engine', () => {
    expectTypeOf(Engine.create).parameters.toEqualTypeOf<[options?: EngineOptions]>()
    expectTypeOf(Engine.create).returns.toEqualTypeOf<Promise<Engine>>()
    expectTypeOf<EngineOptions>().toHaveProperty('dataDir').toEqualTypeOf<string | undefined>()
    expectTypeOf<EngineOptions>().toHaveProperty('isolated').toEqualTypeOf<boolean | undefined>()
    expectTypeOf<EngineOptions['onEvent']>().toEqualTypeOf<((envelope: EventEnvelope) => void) | undefined>()
    expectTypeOf<Engine['openSession']>().toEqualTypeOf<(options: OpenSessionOptions) => Promise<Session>>()
    expectTypeOf<OpenSessionOptions['projectRoot']>().toEqualTypeOf<string>()
    expectTypeOf<Engine['shutdown']>().toEqualTypeOf<() => Promise<void>>()
    expectTypeOf<EngineError['code']>().toEqualTypeOf<
      'sessionNotFound' | 'storeFailed' | 'invalidOption' | 'modelUnavailable'
    >()
  })

  it('a Session handle submits text, sends commands, streams events and closes', () => {
    expectTypeOf<Session['id']>().toEqualTypeOf<string>()
    expectTypeOf<Session['mode']>().toEqualTypeOf<PermissionMode>()
    expectTypeOf<Session['submit']>().parameter(0).toEqualTypeOf<string>()
    expectTypeOf<Session['submit']>().returns.toEqualTypeOf<TurnHandle>()
    expectTypeOf<Session['events']>().returns.toEqualTypeOf<AsyncIterable<EventEnvelope>>()
    expectTypeOf<Session['idle']>().toEqualTypeOf<() => Promise<void>>()
    expectTypeOf<Session['close']>().returns.toEqualTypeOf<Promise<void>>()
    expectTypeOf<keyof Session>().toEqualTypeOf<
      | 'id'
      | 'projectRoot'
      | 'model'
      | 'mode'
      | 'busy'
      | 'submit'
      | 'send'
      | 'events'
      | 'idle'
      | 'onClose'
      | 'close'
    >()
  })

  it('the event union is discriminated by `type`, each member narrowed by it', () => {
    expectTypeOf<EngineEvent['type']>().toEqualTypeOf<EventType>()
    expectTypeOf<EventEnvelope['event']>().toEqualTypeOf<EngineEvent>()
    expectTypeOf<EventOf<'textDelta'>>().toEqualTypeOf<{ type: 'textDelta'; id: string; delta: string }>()
    expectTypeOf<EventOf<'turnFinished'>['outcome']>().toEqualTypeOf<TurnOutcome>()
    expectTypeOf<TurnOutcome['type']>().toEqualTypeOf<
      'done' | 'interrupted' | 'cancelled' | 'budgetExhausted' | 'failed' | 'incomplete'
    >()
    expectTypeOf<
      Extract<
        EventType,
        | 'sessionOpened'
        | 'turnStarted'
        | 'turnFinished'
        | 'textDelta'
        | 'toolStarted'
        | 'toolFinished'
        | 'approvalRequested'
        | 'notice'
      >
    >().toEqualTypeOf<
      | 'sessionOpened'
      | 'turnStarted'
      | 'turnFinished'
      | 'textDelta'
      | 'toolStarted'
      | 'toolFinished'
      | 'approvalRequested'
      | 'notice'
    >()
  })

  it("defineTool infers execute's input from a Standard Schema (zod), and leaves a JSON Schema's open", () => {
    const schema = z.object({ city: z.string(), days: z.number().optional() })
    expectTypeOf<ToolInputOf<typeof schema>>().toEqualTypeOf<{ city: string; days?: number | undefined }>()
    const tool = defineTool({
      name: 'weather',
      description: 'The weather',
      inputSchema: schema,
      execute: (input) => {
        expectTypeOf(input).toEqualTypeOf<{ city: string; days?: number | undefined }>()
        return input.city
      },
    })
    expectTypeOf(tool.name).toEqualTypeOf<string>()
    defineTool({
      name: 'echo',
      description: 'Echo',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      execute: (input) => {
        expectTypeOf(input).toEqualTypeOf<Record<string, unknown>>()
        return { content: String(input.text) }
      },
    })
    expectTypeOf<ToolExecuteResult>().extract<string>().toEqualTypeOf<string>()
  })

  it('run() returns a TurnHandle that awaits to the TurnResult', () => {
    expectTypeOf(run).returns.toEqualTypeOf<TurnHandle>()
    expectTypeOf<Awaited<TurnHandle>>().toEqualTypeOf<TurnResult>()
    expectTypeOf<TurnHandle['result']>().toEqualTypeOf<Promise<TurnResult>>()
    expectTypeOf<TurnResult['outcome']>().toEqualTypeOf<TurnOutcome>()
    expectTypeOf<TurnResult['text']>().toEqualTypeOf<string>()
    expectTypeOf<TurnResult['sessionId']>().toEqualTypeOf<string>()
  })
})
