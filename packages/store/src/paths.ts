import { join } from 'node:path'

/** What {@link defaultDataDir} needs from the environment; passed in so nothing reads `process.env` deep inside. */
export interface DataDirEnvironment {
  /** `$XDG_DATA_HOME`, if set. */
  xdgDataHome?: string | undefined
  /** The user's home directory (`os.homedir()`). */
  home: string
}

/**
 * The default data dir: `$XDG_DATA_HOME/z-engine`, else `~/.local/share/z-engine` (XDG base
 * directory spec: a relative `XDG_DATA_HOME` is invalid and ignored). Sessions live in its
 * `sessions/` folder; the embedder may pass any other data dir instead.
 */
export function defaultDataDir(environment: DataDirEnvironment): string {
  const xdg = environment.xdgDataHome
  const base = xdg?.startsWith('/') ? xdg : join(environment.home, '.local', 'share')
  return join(base, 'z-engine')
}

/** Where one session's files live. */
export interface SessionPaths {
  dir: string
  log: string
  meta: string
  agentsDir: string
  artifactsDir: string
}

/** The folder holding every session of a data dir. */
export function sessionsDir(dataDir: string): string {
  return join(dataDir, 'sessions')
}

/** The paths of one session; the id must have passed {@link checkSessionId}. */
export function sessionPaths(dataDir: string, sessionId: string): SessionPaths {
  const dir = join(sessionsDir(dataDir), sessionId)
  return {
    dir,
    log: join(dir, 'log.jsonl'),
    meta: join(dir, 'meta.json'),
    agentsDir: join(dir, 'agents'),
    artifactsDir: join(dir, 'artifacts'),
  }
}

/** The transcript file of one subagent; the id must have passed {@link checkSessionId}. */
export function agentLogPath(paths: SessionPaths, agentId: string): string {
  return join(paths.agentsDir, `${agentId}.jsonl`)
}

// Ids become path segments, so anything that could climb out of the data dir is refused.
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/

/** Returns an error message when an id cannot be used as a session or agent id, else undefined. */
export function checkSessionId(id: string): string | undefined {
  if (SAFE_ID.test(id) && !id.includes('..')) return undefined
  return `invalid id ${JSON.stringify(id)}: use 1-128 letters, digits, '.', '_' or '-', starting with a letter or digit`
}
