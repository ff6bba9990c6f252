import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { appendToTomlArray } from './toml-append.js'

/** Where a persisted value went, or why it could not be saved (the file is then untouched). */
export type PersistResult =
  | { ok: true; file: string; changed: boolean }
  | { ok: false; file: string; error: string }

/** `<project>/.z-engine/settings.local.toml`, the file AllowProject and `/add-dir --save` write. */
export function localSettingsFile(projectRoot: string): string {
  return join(projectRoot, '.z-engine', 'settings.local.toml')
}

/** Appends an allow rule to `permissions.allow` in settings.local.toml, keeping comments and other keys. */
export function persistAllowRule(projectRoot: string, rule: string): Promise<PersistResult> {
  return appendLocal(projectRoot, 'allow', rule)
}

/** Appends a folder to `permissions.additional_directories` in settings.local.toml (`/add-dir --save`). */
export function persistAdditionalDirectory(projectRoot: string, directory: string): Promise<PersistResult> {
  return appendLocal(projectRoot, 'additional_directories', directory)
}

async function appendLocal(projectRoot: string, key: string, value: string): Promise<PersistResult> {
  const file = localSettingsFile(projectRoot)
  let text = ''
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT')
      return { ok: false, file, error: `Could not read ${file} (${code ?? String(error)}).` }
  }
  const edit = appendToTomlArray(text, ['permissions'], key, value)
  if (!edit.ok)
    return {
      ok: false,
      file,
      error: `Could not add ${JSON.stringify(value)} to permissions.${key} in ${file}: ${edit.error}.`,
    }
  if (!edit.changed) return { ok: true, file, changed: false }
  try {
    await mkdir(dirname(file), { recursive: true })
    // Write then rename, so a crash never leaves a half-written settings file.
    const temporary = `${file}.${process.pid}.tmp`
    await writeFile(temporary, edit.text)
    await rename(temporary, file)
    return { ok: true, file, changed: true }
  } catch (error) {
    return {
      ok: false,
      file,
      error: `Could not write ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
    }
  }
}
