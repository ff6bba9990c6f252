import { readFile } from 'node:fs/promises'
import type { LoadedLayer, SettingsLayerName, SettingsNotice } from './layers.js'

/**
 * A settings file's text: undefined when there is none (missing, or a folder on its path is a file),
 * the error's code when it is there but cannot be read. Every layer reader starts with it.
 */
export async function readSettingsText(file: string): Promise<string | undefined | { code: string }> {
  try {
    return await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined
    return { code: code ?? String(error) }
  }
}

/** The layer of a file that is not there: empty, and not present. */
export function absentLayer(name: SettingsLayerName, file: string): LoadedLayer {
  return { name, file, present: false, data: {}, notices: [] }
}

/** The layer of a file that is there but skipped whole (unreadable, unparsable): no data, and why. */
export function skippedLayer(name: SettingsLayerName, file: string, notice: SettingsNotice): LoadedLayer {
  return { name, file, present: true, data: {}, notices: [notice] }
}
