import { describe, expect, it } from 'vitest'
import { EVENT_TYPES, EventSchemas, parseEnvelope, parseEvent } from '../src/index.js'
import { EVENTS } from './examples.js'

describe('events', () => {
  it('has a schema whose type tag matches its key for every event type', () => {
    for (const type of EVENT_TYPES) expect(EventSchemas[type].properties.type).toMatchObject({ const: type })
    expect(Object.keys(EVENTS).sort()).toEqual([...EVENT_TYPES].sort())
  })

  it.each(EVENT_TYPES)('%s: a valid example validates and round-trips through JSON', (type) => {
    const wire = JSON.parse(JSON.stringify(EVENTS[type])) as unknown
    expect(parseEvent(wire)).toEqual({ ok: true, event: EVENTS[type] })
  })

  it('names the streaming parts start/delta/end (vercel/ai convention)', () => {
    for (const part of ['text', 'thinking']) {
      for (const step of ['Start', 'Delta', 'End']) expect(EVENT_TYPES).toContain(`${part}${step}`)
    }
  })

  it.each([
    [
      { type: 'toolFinished', toolUseId: 't', toolName: 'Read', status: 'skipped', durationMs: 1 },
      'status',
      'must be one of: ok, error, denied, cancelled (got "skipped")',
    ],
    [
      { type: 'compactionStarted', trigger: 'pressure' },
      'trigger',
      'must be one of: auto, manual (got "pressure")',
    ],
    [
      {
        type: 'turnFinished',
        turnId: 't',
        outcome: { type: 'done' },
        usage: {},
        cost: {},
        badge: { type: 'notApplicable' },
        mutated: false,
      },
      'usage.inputTokens',
      'is required but missing',
    ],
    [{ type: 'retrying', attempt: 0, delayMs: 10, reason: 'x' }, 'attempt', 'must be >= 1'],
  ])('rejects an invalid event with its path (%#)', (input, path, message) => {
    expect(parseEvent(input)).toEqual({ ok: false, error: { path, message } })
  })

  it('validates envelopes around every event', () => {
    EVENT_TYPES.forEach((type, seq) => {
      const envelope = {
        seq,
        sessionId: 's1',
        turnId: 't1',
        agentId: 'a1',
        at: '2026-11-29T22:00:00Z',
        event: EVENTS[type],
      }
      expect(parseEnvelope(JSON.parse(JSON.stringify(envelope)))).toEqual({ ok: true, envelope })
    })
    expect(parseEnvelope({ seq: -1, sessionId: 's', at: 'x', event: EVENTS.textEnd })).toEqual({
      ok: false,
      error: { path: 'seq', message: 'must be >= 0' },
    })
    expect(parseEnvelope({ seq: 0, sessionId: 's', at: 'x', event: { type: 'textEnd' } })).toEqual({
      ok: false,
      error: { path: 'event.id', message: 'is required but missing' },
    })
  })
})

describe('event messages', () => {
  it('says how many items an array needs', () => {
    const question = { id: 'q', toolUseId: 't', questions: [] }
    expect(parseEvent({ type: 'questionAsked', question })).toEqual({
      ok: false,
      error: { path: 'question.questions', message: 'must have at least 1 item(s)' },
    })
  })
})
