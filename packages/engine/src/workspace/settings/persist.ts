import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { userProjectSettingsFile } from './paths.js'
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

/**
 * Appends an allow rule to the user's own file for this project (`<configDir>/projects/…toml`), for
 * an untrusted workspace: its settings.local.toml is trust-gated and would be ignored next time.
 */
export function persistUserProjectAllowRule(
  configDir: string,
  projectRoot: string,
  rule: string,
): Promise<PersistResult> {
  const file = userProjectSettingsFile(configDir, projectRoot)
  return appendToFile(file, 'allow', rule, {
    header: `# Rules allowed "always in this project" for ${projectRoot} (z-engine writes this file).\n`,
  })
}

/** Appends a folder to `permissions.additional_directories` in settings.local.toml (`/add-dir --save`). */
export function persistAdditionalDirectory(projectRoot: string, directory: string): Promise<PersistResult> {
  return appendLocal(projectRoot, 'additional_directories', directory)
}

function appendLocal(projectRoot: string, key: string, value: string): Promise<PersistResult> {
  return appendToFile(localSettingsFile(projectRoot), key, value, { ignore: true })
}

async function appendToFile(
  file: string,
  key: string,
  value: string,
  options: { ignore?: boolean; header?: string },
): Promise<PersistResult> {
  let text = ''
  let created = false
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code !== 'ENOENT')
      return { ok: false, file, error: `Could not read ${file} (${code ?? String(error)}).` }
    created = true
    text = options.header ?? ''
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
    if (created && options.ignore) await ignoreLocalFile(dirname(file))
    return { ok: true, file, changed: true }
  } catch (error) {
    return {
      ok: false,
      file,
      error: `Could not write ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
    }
  }
}

/**
 * settings.local.toml is per machine: when the engine creates it, it also lists it in
 * `.z-engine/.gitignore` so it is not committed by accident. Best effort; a failure changes nothing else.
 */
async function ignoreLocalFile(folder: string): Promise<void> {
  const ignoreFile = join(folder, '.gitignore')
  const current = await readFile(ignoreFile, 'utf8').catch(() => '')
  if (
    current
      .split(/\r?\n/)
      .some((line) => line.trim() === 'settings.local.toml' || line.trim() === '/settings.local.toml')
  )
    return
  const separator = current === '' || current.endsWith('\n') ? '' : '\n'
  await writeFile(ignoreFile, `${current}${separator}settings.local.toml\n`).catch(() => {})
}
