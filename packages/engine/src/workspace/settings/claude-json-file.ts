import { chmod, mkdir, realpath, rename, rmdir, stat, unlink, writeFile } from 'node:fs/promises'
import { dirname } from 'node:path'
import { setTimeout as delay } from 'node:timers/promises'
import { type ClaudeJsonLayers, claudeJsonLayers, parseClaudeJson } from './claude-json.js'
import { readSettingsText } from './read-settings-text.js'

type Json = Record<string, unknown>

/** How long to wait for Claude Code's lock on the file, and when a lock is old enough to be stale. */
const LOCK_WAIT_MS = 5_000
/** proper-lockfile's default: Claude Code refreshes its lock's mtime well within this. */
const LOCK_STALE_MS = 10_000

/** Reads `~/.claude.json`'s MCP layers (see `claudeJsonLayers`); a missing file gives empty layers. */
export async function readClaudeJsonLayers(
  file: string,
  projectRoot: string | undefined,
): Promise<ClaudeJsonLayers> {
  const text = await readSettingsText(file)
  if (typeof text === 'object') {
    const layers = claudeJsonLayers(file, undefined, projectRoot)
    layers.user.notices.push({
      severity: 'error',
      layer: 'claudeJsonUser',
      file,
      code: 'file_unreadable',
      message: `${file} could not be read (${text.code}); its MCP servers (user and local scope) are skipped.`,
    })
    return layers
  }
  return claudeJsonLayers(file, text, projectRoot)
}

/** The whole of `~/.claude.json` (`{}` when it does not exist), or why it cannot be read. */
export async function readClaudeJson(
  file: string,
): Promise<{ ok: true; config: Json } | { ok: false; error: string }> {
  const text = await readSettingsText(file)
  if (typeof text === 'object') return { ok: false, error: `${file} could not be read (${text.code}).` }
  if (text === undefined) return { ok: true, config: {} }
  const parsed = parseClaudeJson(file, text)
  return parsed.ok
    ? parsed
    : { ok: false, error: `${parsed.message}. Fix it (or move it aside); nothing was changed.` }
}

/**
 * Changes `~/.claude.json` as Claude Code does: under its lock (`<file>.lock`, a folder, as
 * proper-lockfile makes it), read, changed by `change`, and replaced whole through a temp file
 * renamed over it, keeping the file's mode (a new file is 0600, as Claude Code creates it). Every
 * key `change` leaves alone is kept. A file that does not parse is left untouched and reported.
 */
export async function updateClaudeJson<T>(
  path: string,
  change: (config: Json) => { config: Json; value: T } | { error: string },
): Promise<{ ok: true; value: T } | { ok: false; error: string }> {
  // A ~/.claude.json linked from a dotfiles folder stays a link: the file it points at is replaced.
  const file = await realpath(path).catch(() => path)
  await mkdir(dirname(file), { recursive: true })
  const lock = await acquireLock(`${file}.lock`)
  if (!lock.ok) return lock
  try {
    const read = await readClaudeJson(file)
    if (!read.ok) return read
    const changed = change(read.config)
    if ('error' in changed) return { ok: false, error: changed.error }
    const mode = (await stat(file).catch(() => undefined))?.mode ?? 0o600
    const temp = `${file}.${process.pid}.${Date.now()}.tmp`
    try {
      await writeFile(temp, `${JSON.stringify(changed.config, null, 2)}\n`, { mode: 0o600 })
      await chmod(temp, mode & 0o7777)
      await rename(temp, file)
    } catch (error) {
      await unlink(temp).catch(() => undefined)
      return {
        ok: false,
        error: `${file} could not be written (${(error as Error).message}); it is unchanged.`,
      }
    }
    return { ok: true, value: changed.value }
  } finally {
    await rmdir(`${file}.lock`).catch(() => undefined)
  }
}

async function acquireLock(path: string): Promise<{ ok: true } | { ok: false; error: string }> {
  const deadline = Date.now() + LOCK_WAIT_MS
  for (let wait = 20; ; wait = Math.min(wait * 2, 500)) {
    try {
      await mkdir(path)
      return { ok: true }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        return {
          ok: false,
          error: `could not lock ${path} (${(error as Error).message}); nothing was changed.`,
        }
    }
    // A lock its holder stopped refreshing was left by a process that died: take it over.
    const held = await stat(path).catch(() => undefined)
    if (held !== undefined && Date.now() - held.mtimeMs > LOCK_STALE_MS) {
      await rmdir(path).catch(() => undefined)
      continue
    }
    if (Date.now() > deadline)
      return {
        ok: false,
        error: `${path} is held by another program (Claude Code writing its config?); nothing was changed. Try again.`,
      }
    await delay(wait)
  }
}
