import { describe, expect, it } from 'vitest'
import {
  type EngineEvent,
  EVENT_TYPES,
  isPersistedEvent,
  isPersistedType,
  LOG_FORMAT_VERSION,
  LOG_RECORD_TYPES,
  LogRecordSchemas,
  type LogRecordType,
  parseEvent,
  parseLogRecord,
} from '../src/index.js'
import { LOG_RECORDS } from './examples.js'

describe('log records', () => {
  it('covers every kind spec 000 "Persistence" lists, as persisted events plus the header', () => {
    // messages, turns, todos, plans, questions, approvals, agents, checks, checkpoints, compactions,
    // rewinds, mode/model/title changes, usage, task views; plus the header.
    for (const type of [
      'header',
      'messageRecorded',
      'turnStarted',
      'turnFinished',
      'todosUpdated',
      'planProposed',
      'planResolved',
      'questionAsked',
      'questionAnswered',
      'approvalRequested',
      'approvalResolved',
      'agentUpdated',
      'checkRecorded',
      'checkpointCreated',
      'compacted',
      'rewound',
      'modeChanged',
      'modelChanged',
      'titleChanged',
      'usageUpdated',
      'taskViewApplied',
    ]) {
      expect(LOG_RECORD_TYPES).toContain(type)
    }
    for (const type of LOG_RECORD_TYPES)
      expect((LogRecordSchemas[type] as { properties: { type: unknown } }).properties.type).toMatchObject({
        const: type,
      })
    expect(Object.keys(LOG_RECORDS).sort()).toEqual([...LOG_RECORD_TYPES].sort())
  })

  it('has exactly one record type per persisted event, and no other but the header', () => {
    expect(LOG_RECORD_TYPES).toEqual(['header', ...EVENT_TYPES.filter(isPersistedType)])
    for (const type of EVENT_TYPES) {
      const persisted = isPersistedEvent({ type } as EngineEvent)
      expect(LOG_RECORD_TYPES.includes(type as LogRecordType)).toBe(persisted)
    }
    // A record's fields are its event's, plus the stamp.
    const { id: _id, at: _at, turnId: _turn, ...event } = LOG_RECORDS.usageUpdated
    expect(parseEvent(event)).toEqual({ ok: true, event })
    expect(isPersistedType('textDelta')).toBe(false)
    expect(isPersistedType('messageRecorded')).toBe(true)
  })

  it.each(LOG_RECORD_TYPES)('%s: a valid record validates and round-trips as a JSONL line', (type) => {
    const line = JSON.stringify(LOG_RECORDS[type])
    expect(line).not.toContain('\n')
    expect(parseLogRecord(JSON.parse(line))).toEqual({ ok: true, record: LOG_RECORDS[type] })
  })

  it('requires type, id and at on every record', () => {
    for (const type of LOG_RECORD_TYPES) {
      const { id: _id, ...withoutId } = LOG_RECORDS[type]
      expect(parseLogRecord(withoutId)).toEqual({
        ok: false,
        error: { path: 'id', message: 'is required but missing' },
      })
      const { at: _at, ...withoutAt } = LOG_RECORDS[type]
      expect(parseLogRecord(withoutAt)).toEqual({
        ok: false,
        error: { path: 'at', message: 'is required but missing' },
      })
    }
  })

  it('writes the format version in the header', () => {
    expect(LOG_FORMAT_VERSION).toBeGreaterThanOrEqual(1)
    expect(LOG_RECORDS.header.formatVersion).toBe(LOG_FORMAT_VERSION)
    const { formatVersion: _v, ...headerless } = LOG_RECORDS.header
    expect(parseLogRecord(headerless)).toEqual({
      ok: false,
      error: { path: 'formatVersion', message: 'is required but missing' },
    })
  })

  it('keeps fields a newer writer added (records are open)', () => {
    const newer = { ...LOG_RECORDS.usageUpdated, requestId: 'req_1' }
    expect(parseLogRecord(newer)).toEqual({ ok: true, record: newer })
  })

  it('reports a damaged nested message with its path', () => {
    const broken = { ...LOG_RECORDS.messageRecorded, message: { id: 'm', role: 'system', content: [] } }
    expect(parseLogRecord(broken)).toEqual({
      ok: false,
      error: { path: 'message.role', message: 'must be one of: user, assistant (got "system")' },
    })
    const badBlock = {
      ...LOG_RECORDS.messageRecorded,
      message: { id: 'm', role: 'user', content: [{ type: 'tool_result', toolUseId: 't', content: [] }] },
    }
    expect(parseLogRecord(badBlock)).toEqual({
      ok: false,
      error: { path: 'message.content[0].isError', message: 'is required but missing' },
    })
  })

  it('names the kind when a record type is unknown', () => {
    const result = parseLogRecord({ type: 'bogus', id: 'r', at: 'x' })
    expect(result.ok).toBe(false)
    if (!result.ok)
      expect(result.error.message).toMatch(/^unknown log record type "bogus"; expected one of: header, /)
  })
})
