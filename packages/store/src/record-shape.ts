import type { LogRecord, LogRecordType } from '@z-engine/protocol'
import type { ReplayProblem } from './line-reader.js'

/** A parsed line accepted as a record, or why not. */
export type ShapeCheck =
  | { ok: true; record: LogRecord }
  | { ok: false; kind: Extract<ReplayProblem['kind'], 'invalid' | 'unknownType'>; message: string }

type Json = Record<string, unknown>

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
const isString = (value: unknown): value is string => typeof value === 'string'
const hasStrings = (value: unknown, ...keys: string[]): boolean =>
  isObject(value) && keys.every((key) => isString(value[key]))
const isTagged = (value: unknown): boolean => isObject(value) && isString(value.type)
const isMessage = (value: unknown): boolean =>
  hasStrings(value, 'id', 'role') &&
  ((value as Json).role === 'user' || (value as Json).role === 'assistant') &&
  Array.isArray((value as Json).content) &&
  ((value as Json).content as unknown[]).every(isTagged)
const isNumbers = (value: unknown): boolean =>
  isObject(value) && Object.values(value).every((field) => typeof field === 'number')

/**
 * The fields replay reads, per record type; a record missing them is skipped as `invalid` rather
 * than crashing replay. Full schema validation stays with the protocol's validators: this is the
 * hot path of a 100,000-record replay.
 */
const CHECKS: Record<LogRecordType, (record: Json) => boolean> = {
  header: (r) => typeof r.formatVersion === 'number' && hasStrings(r, 'sessionId', 'projectRoot'),
  messageRecorded: (r) => isMessage(r.message),
  turnStarted: (r) => isString(r.turnId),
  turnFinished: (r) => isString(r.turnId) && isTagged(r.outcome),
  todosUpdated: (r) => Array.isArray(r.todos),
  planProposed: (r) => isObject(r.plan),
  planResolved: (r) => isString(r.planId),
  questionAsked: (r) => isObject(r.question),
  questionAnswered: (r) => isString(r.questionId),
  approvalRequested: (r) => hasStrings(r.request, 'id', 'toolUseId'),
  approvalResolved: (r) => isString(r.approvalId) && isTagged(r.decision),
  agentUpdated: (r) => hasStrings(r.agent, 'id'),
  checkRecorded: (r) => isObject(r.record),
  checkpointCreated: (r) => hasStrings(r.checkpoint, 'id', 'commit'),
  compacted: (r) => isObject(r.marker) && isMessage(r.summary) && isString(r.firstKeptMessageId),
  rewound: (r) =>
    isString(r.messageId) && (r.scope === 'code' || r.scope === 'conversation' || r.scope === 'both'),
  modeChanged: (r) => isString(r.mode),
  modelChanged: (r) => isString(r.model),
  titleChanged: (r) => isString(r.title),
  usageUpdated: (r) => isNumbers(r.usage) && isNumbers(r.cost),
  taskViewApplied: (r) =>
    isObject(r.view) && Array.isArray(r.view.keptMessageIds) && typeof r.view.restored === 'boolean',
  decisionTraced: (r) => hasStrings(r.trace, 'id', 'seam', 'feature', 'outcome'),
}

/** Checks that a parsed line is a record replay can use; never throws. */
export function checkRecordShape(value: unknown): ShapeCheck {
  if (!isObject(value) || !isString(value.type) || !isString(value.id)) {
    return {
      ok: false,
      kind: 'invalid',
      message: 'the line is not a record (an object with string type and id); skipped',
    }
  }
  if (!Object.hasOwn(CHECKS, value.type)) {
    return {
      ok: false,
      kind: 'unknownType',
      message: `unknown record type ${JSON.stringify(value.type)} (written by a newer z-engine?); skipped`,
    }
  }
  if (!CHECKS[value.type as LogRecordType](value)) {
    return {
      ok: false,
      kind: 'invalid',
      message: `a ${value.type} record lacks fields replay needs; skipped`,
    }
  }
  return { ok: true, record: value as unknown as LogRecord }
}
