import type { Engine } from '@z-engine/engine'

/** What the store lists for a session (the engine's `listSessions` rows). */
type SessionSummary = Awaited<ReturnType<Engine['listSessions']>>[number]

/** One row of a session list or picker. */
export interface SessionRow {
  sessionId: string
  /** The shortest prefix (at least 8 characters) that names this session alone among the rows. */
  shortId: string
  title: string
  projectRoot: string
  /** Whether the session belongs to the project the list was made for. */
  inProject: boolean
  lastActivity: string
  /** "5 minutes ago", "yesterday", or the date. */
  when: string
  parentId?: string
}

/**
 * The sessions to offer, for `sessions list`, `--resume` without an id and the chat's picker: this
 * project's sessions first (most recent first), then, with `all`, every other project's.
 */
export async function listSessionRows(
  engine: Pick<Engine, 'listSessions'>,
  projectRoot: string,
  options: { all?: boolean; now?: Date } = {},
): Promise<SessionRow[]> {
  const every = await engine.listSessions()
  const mine = every.filter((session) => session.projectRoot === projectRoot)
  const others = options.all ? every.filter((session) => session.projectRoot !== projectRoot) : []
  const now = options.now ?? new Date()
  const ids = every.map((session) => session.sessionId)
  return [...mine, ...others].map((session) => rowOf(session, projectRoot, ids, now))
}

function rowOf(session: SessionSummary, projectRoot: string, ids: readonly string[], now: Date): SessionRow {
  return {
    sessionId: session.sessionId,
    shortId: shortestUniquePrefix(session.sessionId, ids),
    title: session.title || '(untitled)',
    projectRoot: session.projectRoot,
    inProject: session.projectRoot === projectRoot,
    lastActivity: session.lastActivity,
    when: relativeTime(session.lastActivity, now),
    ...(session.parent ? { parentId: session.parent.sessionId } : {}),
  }
}

/** The shortest prefix of `id`, at least `min` characters, that no other id starts with. */
export function shortestUniquePrefix(id: string, ids: readonly string[], min = 8): string {
  for (let length = Math.min(min, id.length); length < id.length; length++) {
    const prefix = id.slice(0, length)
    if (!ids.some((other) => other !== id && other.startsWith(prefix))) return prefix
  }
  return id
}

/** A past time said the way people say it: "just now", "5 minutes ago", "yesterday", the date. */
export function relativeTime(iso: string, now: Date): string {
  const then = new Date(iso)
  const seconds = Math.round((now.getTime() - then.getTime()) / 1000)
  if (!Number.isFinite(seconds)) return iso
  if (seconds < 60) return 'just now'
  const minutes = Math.round(seconds / 60)
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`
  const hours = Math.round(minutes / 60)
  if (hours < 24) return `${hours} hour${hours === 1 ? '' : 's'} ago`
  const days = Math.round(hours / 24)
  if (days === 1) return 'yesterday'
  if (days < 7) return `${days} days ago`
  return iso.slice(0, 10)
}

/** One line per row: short id, when, title (and the project when it is another one). */
export function formatSessionRows(rows: readonly SessionRow[]): string[] {
  const width = Math.max(0, ...rows.map((row) => row.when.length))
  return rows.map((row) =>
    [
      row.shortId,
      row.when.padEnd(width),
      row.title,
      ...(row.inProject ? [] : [`(${row.projectRoot})`]),
      ...(row.parentId ? [`fork of ${row.parentId.slice(0, 8)}`] : []),
    ].join('  '),
  )
}

/**
 * What `--resume` without an id says where no picker can be shown (no terminal, or `exec`): the
 * sessions to choose from and how to name one. `command` is how to rerun, e.g. `z-engine --resume`.
 */
export function resumeWithoutIdMessage(
  rows: readonly SessionRow[],
  command: string,
  projectRoot: string,
): string {
  if (rows.length === 0)
    return `--resume needs a session id, and there is no stored session for ${projectRoot} ('z-engine sessions list --all' lists every project's).`
  const shown = rows.slice(0, 10)
  return [
    `--resume needs a session id here (no terminal to pick one in). This project's sessions, most recent first:`,
    ...formatSessionRows(shown).map((line) => `  ${line}`),
    ...(rows.length > shown.length
      ? [`  … and ${rows.length - shown.length} more ('z-engine sessions list')`]
      : []),
    `Rerun with one of them: ${command} ${shown[0]?.shortId ?? '<id>'} (a unique prefix is enough), or use --continue for the latest.`,
  ].join('\n')
}
