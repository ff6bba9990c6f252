/**
 * Journal records: the lines of a session's `log.jsonl` (and `agents/<id>.jsonl`). A record is a
 * persisted event (see `isPersistedType`) plus its id, the time it was written and its scope (turn,
 * subagent) — the same vocabulary the session publishes, so nothing is written twice under two
 * names. Every record is appended before its event is published; replay rebuilds the display
 * transcript and the model's working set from them without repeating side effects.
 *
 * The one record that is not an event is the `header` opening every file: it carries
 * {@link LOG_FORMAT_VERSION} and the session's identity, which no event holds (`sessionOpened` is
 * live-only and describes a process opening the session, not the file). Other records carry no
 * version. Records are open objects: a reader ignores fields it does not know, so adding an
 * optional field is not a format change.
 */

import { EVENT_TYPES, type EventOf, EventSchemas } from './events.js'
import { isPersistedType, type PersistedEvent, type PersistedEventType } from './persisted-events.js'
import {
  type AnySchema,
  described,
  type Infer,
  int,
  obj,
  type Schema,
  str,
  tagged,
  variant,
} from './schema/builder.js'

/**
 * The journal format version written in every header; bumped on any incompatible change.
 * 3: records are persisted events (`message` became `messageRecorded`, `usage` `usageUpdated`, …).
 * Stores still read logs of format 1 and 2 through their upgrade reader.
 */
export const LOG_FORMAT_VERSION = 3

const id = () => str({ minLength: 1 })

/** Schema of {@link RecordStamp}. */
export const RecordStampSchema = obj(
  {
    id: id(),
    at: str({ description: 'ISO 8601 time the record was written.' }),
  },
  {
    turnId: str({ description: 'The turn it happened in, if any.' }),
    agentId: str({ description: 'The subagent it belongs to; absent for the main agent.' }),
  },
)
/** What a record adds to its event: id, time written, and scope (turn, subagent). */
export type RecordStamp = Infer<typeof RecordStampSchema>

const HeaderSchema = described(
  'First line of every log: format version, session identity, and the fork parent if any.',
  variant(
    'header',
    {
      id: id(),
      at: str({ description: 'ISO 8601 time the record was written.' }),
      formatVersion: int({ minimum: 1, description: 'The `LOG_FORMAT_VERSION` of the writer.' }),
      sessionId: id(),
      projectRoot: str(),
      createdAt: str({ description: 'ISO 8601 time the session was created.' }),
    },
    {
      parent: obj(
        { sessionId: id() },
        { messageId: id() },
        { description: 'The session this was forked from.' },
      ),
      engineVersion: str(),
      agentId: str({ description: 'In agents/<id>.jsonl: the agent whose transcript this is.' }),
    },
    { open: true },
  ),
)

type Stamped<E> = E extends unknown ? E & RecordStamp : never
/** A persisted event as a journal line: the event plus {@link RecordStamp}. */
export type PersistedRecord = Stamped<PersistedEvent>

/**
 * A persisted event's schema as a record: its own fields, plus `id` and `at` (required) and the
 * scope (optional unless the event requires it, as `turnStarted` does `turnId`); open, so a newer
 * writer's extra fields are tolerated.
 */
function recordOf(event: AnySchema): AnySchema {
  const schema = event as {
    properties: Record<string, AnySchema>
    required?: string[]
    additionalProperties?: boolean
  }
  const { additionalProperties: _closed, ...rest } = schema
  const required = schema.required ?? []
  return {
    ...rest,
    properties: { ...schema.properties, ...withoutKeys(RecordStampSchema.properties, required) },
    required: [...required, 'id', 'at'],
  } as AnySchema
}

const withoutKeys = (properties: Readonly<Record<string, AnySchema>>, keys: readonly string[]) =>
  Object.fromEntries(Object.entries(properties).filter(([key]) => !keys.includes(key)))

/** The persisted event types, in documentation order. */
export const PERSISTED_EVENT_TYPES: PersistedEventType[] = EVENT_TYPES.filter(isPersistedType)

/** Schema of every log record, by `type`: the header, then one per persisted event. */
export const LogRecordSchemas = {
  header: HeaderSchema,
  ...(Object.fromEntries(PERSISTED_EVENT_TYPES.map((type) => [type, recordOf(EventSchemas[type])])) as {
    [T in PersistedEventType]: Schema<EventOf<T> & RecordStamp>
  }),
}

/** Every log record `type`. */
export const LOG_RECORD_TYPES = Object.keys(LogRecordSchemas) as LogRecordType[]

type LogRecordSchemaList = readonly (typeof LogRecordSchemas)[keyof typeof LogRecordSchemas][]
/** Schema of {@link LogRecord}. */
export const LogRecordSchema = tagged(Object.values(LogRecordSchemas) as unknown as LogRecordSchemaList)

/** The header record that opens every log file. */
export type LogHeader = Infer<typeof HeaderSchema>
/** One line of a session log: the header or a persisted record; a discriminated union on `type`. */
export type LogRecord = LogHeader | PersistedRecord
/** The `type` tags of log records. */
export type LogRecordType = LogRecord['type']
/** The log record of one `type`. */
export type LogRecordOf<T extends LogRecordType> = Extract<LogRecord, { type: T }>
