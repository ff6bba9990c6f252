/**
 * Parsers for everything that arrives from outside: commands from hosts, events and envelopes read
 * back from a stream, journal lines, settings files. They never throw on user input; an error names
 * the failing path and why.
 */
import { type Command, CommandSchema } from '../commands.js'
import { type EventEnvelope, EventEnvelopeSchema } from '../envelope.js'
import { type EngineEvent, EngineEventSchema } from '../events.js'
import { type LogRecord, LogRecordSchema } from '../log-records.js'
import { parsePermissionMode } from '../permission.js'
import { type PermissionCheckRequest, PermissionCheckRequestSchema } from '../permission-check.js'
import { type SettingsLayer, SettingsSchema } from '../settings.js'
import { type Check, lazyCheck, lazyUnionCheck } from './compile.js'
import { firstError, formatError, type ParseIssue } from './format-error.js'

/** A parse failure: the first problem found. */
export type ParseFailure = { ok: false; error: ParseIssue }

const checkCommand = lazyUnionCheck(CommandSchema, 'commands', 'command')
const checkEvent = lazyUnionCheck(EngineEventSchema, 'events', 'event')
const checkEnvelope = lazyCheck(EventEnvelopeSchema, { file: 'events', name: 'envelope' })
const checkLogRecord = lazyUnionCheck(LogRecordSchema, 'log', 'record')
const checkSettings = lazyCheck(SettingsSchema, { file: 'settings', name: 'settings' })
const checkPermissionRequest = lazyCheck(PermissionCheckRequestSchema, {
  file: 'permissionCheck',
  name: 'permissionCheckRequest',
})

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Replaces an aliased mode (`bypassPermissions`) at `key` of `holder`, copying rather than mutating. */
function withCanonicalMode<T extends Record<string, unknown>>(holder: T, key: string): T {
  const mode = parsePermissionMode(holder[key])
  return mode === undefined || mode === holder[key] ? holder : { ...holder, [key]: mode }
}

function normalizeCommand(value: unknown): unknown {
  if (!isObject(value)) return value
  if (value.type === 'setMode') return withCanonicalMode(value, 'mode')
  if (value.type === 'resolvePlan' && isObject(value.decision)) {
    const decision = withCanonicalMode(value.decision, 'mode')
    return decision === value.decision ? value : { ...value, decision }
  }
  return value
}

function run<T>(check: Check, value: unknown, noun: string): { ok: true; value: T } | ParseFailure {
  const error = firstError(check(value))
  return error === undefined
    ? { ok: true, value: value as T }
    : { ok: false, error: formatError(error, noun) }
}

/** Validates a command from a host; `bypassPermissions` modes are normalized to `bypass`. */
export function parseCommand(value: unknown): { ok: true; command: Command } | ParseFailure {
  const result = run<Command>(checkCommand, normalizeCommand(value), 'command')
  return result.ok ? { ok: true, command: result.value } : result
}

/** Validates one event. */
export function parseEvent(value: unknown): { ok: true; event: EngineEvent } | ParseFailure {
  const result = run<EngineEvent>(checkEvent, value, 'event')
  return result.ok ? { ok: true, event: result.value } : result
}

/** Validates an event envelope (e.g. a line of `serve --stdio` output). */
export function parseEnvelope(value: unknown): { ok: true; envelope: EventEnvelope } | ParseFailure {
  const result = run<EventEnvelope>(checkEnvelope, value, 'envelope')
  return result.ok ? { ok: true, envelope: result.value } : result
}

/** Validates one `permissions check` request; `bypassPermissions` is read as `bypass`. */
export function parsePermissionCheckRequest(
  value: unknown,
): { ok: true; request: PermissionCheckRequest } | ParseFailure {
  const normalized = isObject(value) ? withCanonicalMode(value, 'mode') : value
  const result = run<PermissionCheckRequest>(checkPermissionRequest, normalized, 'permission check request')
  return result.ok ? { ok: true, request: result.value } : result
}

/** Validates one parsed line of a session log. Unknown extra fields are kept (newer writers). */
export function parseLogRecord(value: unknown): { ok: true; record: LogRecord } | ParseFailure {
  const result = run<LogRecord>(checkLogRecord, value, 'log record')
  return result.ok ? { ok: true, record: result.value } : result
}

/** The result of reading one settings layer. */
export type SettingsParseResult =
  | { ok: true; settings: SettingsLayer; warnings: ParseIssue[] }
  | { ok: false; error: ParseIssue; warnings: ParseIssue[] }

function without(root: Record<string, unknown>, segments: readonly string[], key: string): void {
  let holder: unknown = root
  for (const segment of segments)
    holder = isObject(holder) || Array.isArray(holder) ? holder[segment as never] : undefined
  if (isObject(holder)) delete holder[key]
}

/**
 * Validates one settings layer (a parsed TOML file). Unknown keys are warnings, not errors, and are
 * dropped from the result, so a file written for a newer version still loads; `permissions.mode`
 * accepts `bypassPermissions`. Errors name the key path, e.g. `context.compact_at_percent`.
 */
export function parseSettings(value: unknown): SettingsParseResult {
  let input = value
  if (isObject(value) && isObject(value.permissions)) {
    const permissions = withCanonicalMode(value.permissions, 'mode')
    if (permissions !== value.permissions) input = { ...value, permissions }
  }
  const errors = checkSettings(input)
  const unknownKeys = errors.filter((error) => error.keyword === 'additionalProperties')
  const warnings = unknownKeys.map((error) => formatError(error, 'settings'))
  const fatal = firstError(errors.filter((error) => error.keyword !== 'additionalProperties'))
  if (fatal !== undefined) return { ok: false, error: formatError(fatal, 'settings'), warnings }
  if (unknownKeys.length === 0) return { ok: true, settings: input as SettingsLayer, warnings }
  const cleaned = structuredClone(input) as Record<string, unknown>
  for (const error of unknownKeys) {
    const segments =
      error.instancePath === ''
        ? []
        : error.instancePath
            .slice(1)
            .split('/')
            .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    without(cleaned, segments, String((error.params as { additionalProperty: unknown }).additionalProperty))
  }
  return { ok: true, settings: cleaned as SettingsLayer, warnings }
}
