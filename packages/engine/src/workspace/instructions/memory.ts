import { existsSync } from 'node:fs'
import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { memoryBullet } from '@z-engine/context'
import { userConfigDir } from './paths.js'

/** Which instruction file a `/remember` or `#` note goes to. */
export type MemoryTarget = 'project' | 'local' | 'user'

/**
 * The file a note for `target` is appended to (`configDir`: the z-engine config folder): the
 * instruction file that scope already uses, so a project with only a CLAUDE.md gets its note there
 * rather than a new AGENTS.md beside it (Claude Code's files count under `compatClaude`, the default);
 * the AGENTS file when there is none yet.
 */
export function memoryFile(
  target: MemoryTarget,
  projectRoot: string,
  home: string,
  configDir: string = userConfigDir(home),
  compatClaude = true,
): string {
  const existing = (own: string, claude: readonly string[]) =>
    [own, ...(compatClaude ? claude : [])].find((path) => existsSync(path)) ?? own
  switch (target) {
    case 'project':
      return existing(join(projectRoot, 'AGENTS.md'), [
        join(projectRoot, 'CLAUDE.md'),
        join(projectRoot, '.claude', 'CLAUDE.md'),
      ])
    case 'local':
      return existing(join(projectRoot, 'AGENTS.local.md'), [join(projectRoot, 'CLAUDE.local.md')])
    case 'user':
      return existing(join(configDir, 'AGENTS.md'), [join(home, '.claude', 'CLAUDE.md')])
    default: {
      const unhandled: never = target
      throw new Error(`unknown memory target ${String(unhandled)}`)
    }
  }
}

/**
 * Appends a note as a bullet to the target instruction file, creating it (and its folder) when
 * missing. The caller then reloads the instructions (`loadInstructions`) and rebuilds the system
 * prompt. Never throws.
 */
export async function appendMemoryNote(input: {
  target: MemoryTarget
  projectRoot: string
  home: string
  /** The z-engine config folder (default `~/.config/z-engine`). */
  configDir?: string
  /** Whether Claude Code's CLAUDE.md files count as the scope's instruction file (default true). */
  compatClaude?: boolean
  note: string
}): Promise<{ ok: true; path: string } | { ok: false; error: string }> {
  const path = memoryFile(input.target, input.projectRoot, input.home, input.configDir, input.compatClaude)
  if (input.note.trim() === '')
    return { ok: false, error: 'The note is empty; write what to remember after # or /remember.' }
  try {
    let existing = ''
    try {
      existing = await readFile(path, 'utf8')
    } catch {
      await mkdir(dirname(path), { recursive: true })
    }
    const separator = existing === '' || existing.endsWith('\n') ? '' : '\n'
    await appendFile(path, `${separator}${memoryBullet(input.note)}`)
    return { ok: true, path }
  } catch (error) {
    return {
      ok: false,
      error: `Could not append the note to ${path} (${String(error)}); check that the folder is writable.`,
    }
  }
}
