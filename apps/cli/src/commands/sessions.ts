import type { ClientFactory } from '@z-engine/engine'
import { createDefaultClientFactory, Engine, EngineError } from '@z-engine/engine'
import {
  type EventEnvelope,
  type EventOf,
  REWIND_SCOPES,
  type RewindConflict,
  type RewindScope,
} from '@z-engine/protocol'
import { parseCommandArgs } from '../args.js'
import { EXIT, UsageError, unknownWordError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { projectDir } from '../cwd.js'
import { oneLine, printJson, printLines } from '../output.js'
import { formatSessionRows, listSessionRows } from '../sessions/session-listing.js'

const HELP = `Usage: z-engine sessions <subcommand> [options]

  list                          this project's sessions, most recent first (--all: then every
                                other project's)
  show <id>                     a session's turns and transcript, with message and record ids
  fork <id> [--at <recordId>]   copy a session (up to a record, default all) into a new one
  rewind <id> --to <messageId> [--scope code|conversation|both] [--dry-run] [--include-edited]
         [--only <path>]...     restore files and/or the conversation to before a user message:
                                only files the agent changed are reverted; in a file it changed
                                that was edited afterwards only the agent's hunks are reverted
                                (--include-edited reverts it whole; a hunk both changed is left
                                and reported); --only limits a code rewind to those files;
                                --dry-run shows the hunks it would write and changes nothing
  rewind <id> --undo            put back the files the last rewind reverted

An id may be shortened to any unique prefix (as 'sessions list' prints them).

Options:
  --json       print JSON
  --cwd DIR    the project folder (default: the current folder)
  -h, --help   show this help

Continue a session headless with 'z-engine exec --resume <id>' or '--continue' (the latest).
`

const SUBCOMMANDS = ['list', 'show', 'fork', 'rewind'] as const

/** `z-engine sessions list|show|fork|rewind`: inspect and manage stored sessions. */
export async function main(io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.argv, {
    json: { type: 'boolean' },
    cwd: { type: 'string' },
    all: { type: 'boolean' },
    at: { type: 'string' },
    to: { type: 'string' },
    scope: { type: 'string' },
    'dry-run': { type: 'boolean' },
    'include-edited': { type: 'boolean' },
    only: { type: 'string', multiple: true },
    undo: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout.write(HELP)
    return EXIT.ok
  }
  const [sub, id, ...extra] = positionals
  if (sub === undefined)
    throw new UsageError("Missing subcommand: list, show, fork or rewind (see 'z-engine sessions --help').")
  if (!(SUBCOMMANDS as readonly string[]).includes(sub))
    throw unknownWordError('subcommand', sub, SUBCOMMANDS)
  if (extra.length > 0) throw new UsageError(`Unexpected argument '${extra[0]}'.`)
  const json = values.json === true
  const root = await projectDir(io.cwd, values.cwd, io.env.HOME)
  const subcommand = sub as (typeof SUBCOMMANDS)[number]
  if (subcommand !== 'list' && id === undefined)
    throw new UsageError(`'sessions ${subcommand}' needs a session id; 'z-engine sessions list' shows them.`)
  switch (subcommand) {
    case 'list':
      return list(io, root, values.all === true, json)
    case 'show':
      return show(io, id as string, json)
    case 'fork':
      return fork(io, id as string, values.at, json)
    case 'rewind': {
      if (values.undo === true) {
        if (
          values.to !== undefined ||
          values.scope !== undefined ||
          values['dry-run'] ||
          values['include-edited'] ||
          values.only !== undefined
        )
          throw new UsageError("'sessions rewind --undo' takes only the session id.")
        return rewind(io, id as string, { type: 'undo' }, json)
      }
      if (values.to === undefined)
        throw new UsageError(
          "'sessions rewind' needs --to <messageId> ('sessions show <id>' lists them), or --undo.",
        )
      const scope = values.scope ?? (values.only !== undefined ? 'code' : 'both')
      if (!(REWIND_SCOPES as readonly string[]).includes(scope))
        throw unknownWordError('--scope value', scope, REWIND_SCOPES)
      if (values.only !== undefined && scope !== 'code')
        throw new UsageError("'--only' names files, so it takes only '--scope code'.")
      return rewind(
        io,
        id as string,
        {
          type: 'rewind',
          messageId: values.to,
          scope: scope as RewindScope,
          dryRun: values['dry-run'] === true,
          includeEdited: values['include-edited'] === true,
          ...(values.only !== undefined ? { only: values.only } : {}),
        },
        json,
      )
    }
    default: {
      const unreachable: never = subcommand
      return unreachable
    }
  }
}

async function list(io: CommandIo, root: string, all: boolean, json: boolean): Promise<number> {
  const engine = await Engine.create({ env: io.env })
  if (json) {
    const sessions = await engine.listSessions(all ? undefined : root)
    printJson(io, sessions)
    return EXIT.ok
  }
  const rows = await listSessionRows(engine, root, { all })
  if (rows.length === 0) {
    printLines(io, [all ? 'No stored sessions.' : `No sessions for ${root} (--all lists every project's).`])
    return EXIT.ok
  }
  printLines(io, formatSessionRows(rows))
  return EXIT.ok
}

/** The full id of a session given by id or unique prefix; undefined after saying why not. */
async function resolveId(io: CommandIo, engine: Engine, given: string): Promise<string | undefined> {
  const resolved = await engine.resolveSessionId(given)
  if (resolved.ok) return resolved.id
  io.stderr.write(`z-engine: ${resolved.message}\n`)
  return undefined
}

async function show(io: CommandIo, given: string, json: boolean): Promise<number> {
  const engine = await Engine.create({ env: io.env })
  const id = await resolveId(io, engine, given)
  if (id === undefined) return EXIT.failed
  const replayed = await engine.store.replay(id)
  if (!replayed.ok) return notFound(io, id, replayed.error.message)
  const { snapshot, problems } = replayed.value
  if (json) {
    printJson(io, { ...snapshot, problems })
    return EXIT.ok
  }
  const lines = [
    `session  ${snapshot.sessionId}`,
    `project  ${snapshot.projectRoot}`,
    `created  ${snapshot.createdAt}`,
    ...(snapshot.title ? [`title    ${snapshot.title}`] : []),
    `model    ${snapshot.model ?? '(default)'}`,
    `mode     ${snapshot.mode ?? 'default'}`,
    `turns    ${snapshot.turns.length}, cost $${snapshot.cost.totalUsd.toFixed(4)}, ${snapshot.usage.inputTokens} in / ${snapshot.usage.outputTokens} out tokens`,
    ...(snapshot.parent ? [`fork of  ${snapshot.parent.sessionId}`] : []),
    ...(snapshot.lastRecordId ? [`last record  ${snapshot.lastRecordId}`] : []),
    '',
  ]
  for (const item of snapshot.transcript) {
    switch (item.kind) {
      case 'message': {
        const text = item.message.content
          .map((block) => (block.type === 'text' ? block.text : block.type === 'tool_result' ? '' : ''))
          .join(' ')
        if (text.trim() === '' && item.message.role === 'user') continue
        lines.push(`[${item.message.id ?? '-'} @ ${item.recordId}] ${item.message.role}: ${oneLine(text)}`)
        break
      }
      case 'tool':
        lines.push(`    ▸ ${item.name} ${item.status}`)
        break
      case 'turnEnded':
        lines.push(`    — turn ${item.outcome.type}`)
        break
      case 'compaction':
        lines.push('    — context compacted')
        break
      case 'taskView':
        lines.push('    — task view applied')
        break
      case 'notice':
        lines.push(`    ${item.level}: ${item.text}`)
        break
      default: {
        const unreachable: never = item
        return unreachable
      }
    }
  }
  for (const problem of problems)
    lines.push(
      `warning: ${problem.file} at byte ${problem.offset} (${problem.length} bytes): ${problem.kind} line skipped: ${problem.message}`,
    )
  printLines(io, lines)
  return EXIT.ok
}

async function fork(io: CommandIo, given: string, at: string | undefined, json: boolean): Promise<number> {
  const engine = await Engine.create({ env: io.env })
  const id = await resolveId(io, engine, given)
  if (id === undefined) return EXIT.failed
  let upto = at
  if (upto === undefined) {
    const replayed = await engine.store.replay(id)
    if (!replayed.ok) return notFound(io, id, replayed.error.message)
    upto = replayed.value.snapshot.lastRecordId
    if (upto === undefined) return notFound(io, id, `Session ${id} has no records to fork.`)
  }
  const forked = await engine.store.fork(id, { uptoRecordId: upto })
  if (!forked.ok) return notFound(io, id, forked.error.message)
  if (json) printJson(io, { sessionId: forked.value, forkedFrom: id, uptoRecordId: upto })
  else printLines(io, [forked.value, `(continue it with: z-engine exec --resume ${forked.value} "…")`])
  return EXIT.ok
}

/** Rewind never talks to a model; this stands in so a session whose provider has no key still opens. */
function offlineFactory(env: NodeJS.ProcessEnv): ClientFactory {
  const real = createDefaultClientFactory({ env })
  return {
    createClient(ref, provider) {
      const created = real.createClient(ref, provider)
      if (created.ok) return created
      return {
        ok: true,
        provider: 'scripted',
        model: ref,
        client: {
          provider: 'scripted',
          async *stream() {
            yield { type: 'error', error: { kind: 'authentication', message: created.error } }
          },
        },
      }
    },
  }
}

/** What `sessions rewind` was asked to do. */
type RewindRequest =
  | {
      type: 'rewind'
      messageId: string
      scope: RewindScope
      dryRun: boolean
      includeEdited: boolean
      only?: string[]
    }
  | { type: 'undo' }

/** The event that answers a rewind request, or the error that ended it. */
type RewindAnswer =
  | { ok: true; event: EventOf<'rewound'> | EventOf<'rewindPreviewed'> | EventOf<'rewindUndone'> }
  | { ok: false; message: string }

/** Notices whose content the rewind output already lists (skipped and left-alone files). */
const LISTED_NOTICES = new Set([
  'rewindKept',
  'rewindMerged',
  'rewindConflict',
  'rewindLeftAlone',
  'undoKept',
])

async function rewind(io: CommandIo, given: string, request: RewindRequest, json: boolean): Promise<number> {
  const reader = await Engine.create({ env: io.env })
  const id = await resolveId(io, reader, given)
  if (id === undefined) return EXIT.failed
  const replayed = await reader.store.replay(id)
  if (!replayed.ok) return notFound(io, id, replayed.error.message)
  let settle: (answer: RewindAnswer) => void = () => {}
  const settled = new Promise<RewindAnswer>((done) => {
    settle = done
  })
  let opened = false
  const warnings: string[] = []
  const onEvent = (envelope: EventEnvelope) => {
    const event = envelope.event
    if (event.type === 'rewound' || event.type === 'rewindPreviewed' || event.type === 'rewindUndone')
      settle({ ok: true, event })
    else if (opened && event.type === 'notice') {
      if (event.level === 'error') settle({ ok: false, message: event.message })
      else if (event.level === 'warning' && !LISTED_NOTICES.has(event.code ?? ''))
        warnings.push(event.message)
    }
  }
  const engine = await Engine.create({ env: io.env, clientFactory: offlineFactory(io.env), onEvent })
  try {
    const session = await engine.openSession({ projectRoot: replayed.value.snapshot.projectRoot, resume: id })
    opened = true
    session.send(
      request.type === 'undo'
        ? { type: 'undoRewind' }
        : {
            type: 'rewind',
            messageId: request.messageId,
            scope: request.scope,
            ...(request.dryRun ? { dryRun: true } : {}),
            ...(request.includeEdited ? { includeEdited: true } : {}),
            ...(request.only !== undefined ? { only: request.only } : {}),
          },
    )
    const answer = await settled
    if (!answer.ok) {
      io.stderr.write(`z-engine: ${answer.message}\n`)
      return EXIT.failed
    }
    for (const warning of warnings) io.stderr.write(`z-engine: warning: ${warning}\n`)
    if (json) printJson(io, { sessionId: id, ...rewindJson(answer.event) })
    else printLines(io, rewindLines(id, answer.event, replayed.value.snapshot.lastRecordId))
    return EXIT.ok
  } catch (error) {
    if (error instanceof EngineError) return notFound(io, id, error.message)
    throw error
  } finally {
    await engine.shutdown()
  }
}

/** The JSON of `sessions rewind --json`: the answering event's fields, in the CLI's names. */
function rewindJson(event: EventOf<'rewound'> | EventOf<'rewindPreviewed'> | EventOf<'rewindUndone'>) {
  switch (event.type) {
    case 'rewound':
      return {
        messageId: event.messageId,
        scope: event.scope,
        dryRun: false,
        restoredFiles: event.restoredFiles ?? [],
        skippedFiles: event.skippedFiles ?? [],
        leftAloneFiles: event.leftAloneFiles ?? [],
        mergedFiles: event.mergedFiles ?? [],
        conflictFiles: event.conflictFiles ?? [],
        removedMessageIds: event.removedMessageIds ?? [],
      }
    case 'rewindPreviewed':
      return {
        messageId: event.messageId,
        scope: event.scope,
        dryRun: true,
        restoredFiles: event.restoreFiles,
        skippedFiles: event.skippedFiles,
        leftAloneFiles: event.leftAloneFiles,
        mergedFiles: event.mergeFiles ?? [],
        conflictFiles: event.conflictFiles ?? [],
        removedMessageIds: event.removedMessageIds,
        changes: event.changes ?? [],
      }
    case 'rewindUndone':
      return { undone: true, restoredFiles: event.restoredFiles, skippedFiles: event.skippedFiles }
    default: {
      const unreachable: never = event
      return unreachable
    }
  }
}

/** What `sessions rewind` prints: each file with what happened to it, and how to go back. */
function rewindLines(
  id: string,
  event: EventOf<'rewound'> | EventOf<'rewindPreviewed'> | EventOf<'rewindUndone'>,
  lastRecordId: string | undefined,
): string[] {
  const kept = (files: readonly string[] | undefined, why: string) =>
    (files ?? []).map((file) => `  kept     ${file} (${why})`)
  const merged = (files: readonly string[] | undefined, conflicts: readonly RewindConflict[] | undefined) =>
    (files ?? []).map((file) => {
      const left = conflicts?.find((conflict) => conflict.path === file)?.hunks.length ?? 0
      return left === 0
        ? `  merged   ${file} (the agent's hunks reverted, later edits kept)`
        : `  merged   ${file} (the agent's hunks reverted except ${left} that later edits overlap: left as they are; --include-edited --only ${file} reverts it whole)`
    })
  switch (event.type) {
    case 'rewindPreviewed':
      return [
        `Rewinding ${id} to before ${event.messageId} (${event.scope}) would:`,
        ...event.restoreFiles.map((file) => `  revert   ${file}`),
        ...merged(event.mergeFiles, event.conflictFiles),
        ...kept(
          event.skippedFiles,
          'the agent changed it, then it was edited, and it cannot be merged; --include-edited reverts it',
        ),
        ...kept(event.leftAloneFiles, 'not changed by the agent'),
        ...(event.scope === 'code'
          ? []
          : [`  drop     ${event.removedMessageIds.length} message(s) from the conversation`]),
        ...(event.restoreFiles.length === 0 && (event.mergeFiles ?? []).length === 0 && event.scope === 'code'
          ? ['  change no file']
          : []),
        ...(event.changes ?? []).flatMap((change) => [
          '',
          `The hunks for ${change.path}:`,
          ...hunksOf(change.unifiedDiff),
        ]),
        'Nothing was changed (--dry-run).',
      ]
    case 'rewound':
      return [
        `Rewound ${id} to before ${event.messageId} (${event.scope}).`,
        ...(event.restoredFiles ?? []).map((file) => `  restored ${file}`),
        ...merged(event.mergedFiles, event.conflictFiles),
        ...kept(
          event.skippedFiles,
          'the agent changed it, then it was edited, and it cannot be merged; --include-edited reverts it',
        ),
        ...kept(event.leftAloneFiles, 'not changed by the agent'),
        ...(event.conflictFiles ?? []).flatMap((conflict) =>
          conflict.hunks.flatMap((hunk, index) => [
            '',
            `Left in ${conflict.path} (${index + 1}/${conflict.hunks.length}): now`,
            ...indent(hunk.current),
            '  the agent had',
            ...indent(hunk.agent),
            '  before it',
            ...indent(hunk.restored),
          ]),
        ),
        ...((event.restoredFiles ?? []).length > 0 || (event.mergedFiles ?? []).length > 0
          ? [`Undo the file changes with: z-engine sessions rewind ${id} --undo`]
          : []),
        ...(event.scope !== 'code' && lastRecordId !== undefined
          ? [
              `The log keeps the dropped messages: 'z-engine sessions fork ${id} --at ${lastRecordId}' copies the conversation as it was.`,
            ]
          : []),
      ]
    case 'rewindUndone':
      return [
        `Undid the last rewind of ${id}: ${event.restoredFiles.length} file(s) put back.`,
        ...event.restoredFiles.map((file) => `  restored ${file}`),
        ...event.skippedFiles.map((file) => `  kept     ${file} (edited since the rewind)`),
      ]
    default: {
      const unreachable: never = event
      return unreachable
    }
  }
}

/** A file's diff without its headers: the hunks a rewind writes. */
function hunksOf(unifiedDiff: string): string[] {
  const lines = unifiedDiff.replace(/\n$/, '').split('\n')
  const first = lines.findIndex((line) => line.startsWith('@@'))
  return (first < 0 ? lines : lines.slice(first)).map((line) => `  ${line}`)
}

/** A conflict region's lines, indented under its label. */
function indent(text: string): string[] {
  return text === '' ? ['    (nothing)'] : text.split('\n').map((line) => `    ${line}`)
}

function notFound(io: CommandIo, id: string, message: string): number {
  io.stderr.write(`z-engine: ${message}\n(see 'z-engine sessions list' for ids; '${id}' was given)\n`)
  return EXIT.failed
}
