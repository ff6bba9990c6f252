import { appendFile, mkdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { memoryBullet } from '@z-engine/context'
import { userConfigDir } from './paths.js'

/** Which instruction file a `/remember` or `#` note goes to. */
export type MemoryTarget = 'project' | 'local' | 'user'

/** The file a note for `target` is appended to (`configDir`: the z-engine config folder). */
export function memoryFile(
  target: MemoryTarget,
  projectRoot: string,
  home: string,
  configDir: string = userConfigDir(home),
): string {
  switch (target) {
    case 'project':
      return join(projectRoot, 'AGENTS.md')
    case 'local':
      return join(projectRoot, 'AGENTS.local.md')
    case 'user':
      return join(configDir, 'AGENTS.md')
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
  note: string
}): Promise<{ ok: true; path: string } | { ok: false; error: string }> {
  const path = memoryFile(input.target, input.projectRoot, input.home, input.configDir)
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
