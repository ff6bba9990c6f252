/**
 * The Claude Agent SDK's session helpers over the engine's session store (the user's data folder, the
 * one `query()` writes to): `listSessions` and `getSessionInfo` read it; the helpers that would change
 * or replay a stored session reject with what to use instead.
 */
import { realpath } from 'node:fs/promises'
import type { SessionSummary } from '@z-engine/store'
import { Engine } from '../api/engine.js'
import { resolveEnginePaths } from '../workspace/engine-paths.js'

/** A stored session, as the Claude Agent SDK describes one. */
export interface SDKSessionInfo {
  sessionId: string
  summary: string
  lastModified: number
  fileSize?: number
  customTitle?: string
  cwd?: string
  createdAt?: number
}

/** Which sessions `listSessions` returns: a project's (`dir`), a page of them. */
export interface ListSessionsOptions {
  dir?: string
  limit?: number
  offset?: number
  [key: string]: unknown
}

/** Where `getSessionInfo` looks: a project's sessions (`dir`), else all. */
export interface GetSessionInfoOptions {
  dir?: string
  [key: string]: unknown
}

/** Stored sessions, most recently active first (only the project's when `dir` is given). */
export async function listSessions(options: ListSessionsOptions = {}): Promise<SDKSessionInfo[]> {
  const sessions = await stored(options.dir)
  const offset = options.offset ?? 0
  return sessions.slice(offset, options.limit === undefined ? undefined : offset + options.limit).map(info)
}

/** One stored session's description, or undefined when there is none with that id. */
export async function getSessionInfo(
  sessionId: string,
  options: GetSessionInfoOptions = {},
): Promise<SDKSessionInfo | undefined> {
  const found = (await stored(options.dir)).find((session) => session.sessionId === sessionId)
  return found === undefined ? undefined : info(found)
}

async function stored(dir: string | undefined): Promise<SessionSummary[]> {
  const engine = await Engine.create({ isolated: true, dataDir: resolveEnginePaths({}, process.env).dataDir })
  try {
    const root = dir === undefined ? undefined : await realpath(dir).catch(() => dir)
    return await engine.listSessions(root)
  } finally {
    await engine.shutdown()
  }
}

function info(session: SessionSummary): SDKSessionInfo {
  return {
    sessionId: session.sessionId,
    summary: session.title ?? session.sessionId,
    lastModified: Date.parse(session.lastActivity),
    fileSize: session.sizeBytes,
    ...(session.title !== undefined ? { customTitle: session.title } : {}),
    cwd: session.projectRoot,
    createdAt: Date.parse(session.createdAt),
  }
}

/** Session helpers that are refused, with what to do instead. */
const REFUSED_HELPERS = {
  getSessionMessages:
    'replay a session with the engine’s API (@z-engine/engine: engine.openSession({ resume }))',
  getSubagentMessages: 'subagents’ records are in the engine’s session store',
  listSubagents: 'subagents’ records are in the engine’s session store',
  forkSession: 'pass resume and forkSession: true to query()',
  renameSession: 'pass title to query(), or rename with the engine’s setTitle command',
  tagSession: 'sessions have no tags here',
  deleteSession: 'delete the session’s folder in the engine’s data folder',
  archiveSession: 'sessions are not archived here',
  unarchiveSession: 'sessions are not archived here',
} as const

function refused(name: keyof typeof REFUSED_HELPERS): (...args: unknown[]) => Promise<never> {
  return () =>
    Promise.reject(
      new Error(`${name}() is not supported by @z-engine/engine/claude-agent-sdk: ${REFUSED_HELPERS[name]}.`),
    )
}

/** Refused: see REFUSED_HELPERS. */
export const getSessionMessages = refused('getSessionMessages')
/** Refused: see REFUSED_HELPERS. */
export const getSubagentMessages = refused('getSubagentMessages')
/** Refused: see REFUSED_HELPERS. */
export const listSubagents = refused('listSubagents')
/** Refused: pass `resume` and `forkSession: true` to `query()`. */
export const forkSession = refused('forkSession')
/** Refused: see REFUSED_HELPERS. */
export const renameSession = refused('renameSession')
/** Refused: see REFUSED_HELPERS. */
export const tagSession = refused('tagSession')
/** Refused: see REFUSED_HELPERS. */
export const deleteSession = refused('deleteSession')
/** Refused: see REFUSED_HELPERS. */
export const archiveSession = refused('archiveSession')
/** Refused: see REFUSED_HELPERS. */
export const unarchiveSession = refused('unarchiveSession')
