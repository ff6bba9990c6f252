import { existsSync, type FSWatcher, watch } from 'node:fs'
import { basename, dirname } from 'node:path'

/** Something that stops when disposed. */
export interface Disposable {
  dispose(): void
}

/** How long to wait after the last change before reloading: editors write files in bursts. */
export const SETTINGS_RELOAD_DEBOUNCE_MS = 150

/**
 * Calls `onChange` (debounced) when any of `files` is created, changed or deleted. It watches each
 * file's folder rather than the file, so files created later and editors that replace files by
 * renaming are seen; a folder that does not exist yet (a fresh `.z-engine/`) is watched for from its
 * parent and picked up when it appears. Returns a disposable; never throws.
 */
export function watchSettingsFiles(
  files: readonly string[],
  onChange: () => void,
  debounceMs = SETTINGS_RELOAD_DEBOUNCE_MS,
): Disposable {
  const byFolder = new Map<string, Set<string>>()
  for (const file of files) {
    const names = byFolder.get(dirname(file)) ?? new Set<string>()
    names.add(basename(file))
    byFolder.set(dirname(file), names)
  }
  let timer: NodeJS.Timeout | undefined
  let disposed = false
  const watchers = new Map<string, FSWatcher>()
  const schedule = () => {
    if (disposed) return
    clearTimeout(timer)
    timer = setTimeout(() => {
      if (!disposed) onChange()
    }, debounceMs)
  }
  const open = (folder: string, onEvent: (name: string | undefined) => void): boolean => {
    if (watchers.has(folder)) return true
    try {
      const watcher = watch(folder, { persistent: false }, (_event, filename) =>
        onEvent(filename?.toString()),
      )
      watcher.on('error', () => {
        watcher.close()
        watchers.delete(folder)
      })
      watchers.set(folder, watcher)
      return true
    } catch {
      return false
    }
  }
  const arm = (folder: string, names: Set<string>) => {
    // Some platforms omit the name; reloading is cheap, so treat that as a change.
    const watching = open(folder, (name) => {
      if (name === undefined || names.has(name)) schedule()
    })
    if (watching || !existsSync(dirname(folder))) return
    const parent = dirname(folder)
    open(parent, (name) => {
      if (name !== undefined && name !== basename(folder)) return
      if (!existsSync(folder)) return
      watchers.get(parent)?.close()
      watchers.delete(parent)
      arm(folder, names)
      schedule()
    })
  }
  for (const [folder, names] of byFolder) arm(folder, names)
  return {
    dispose() {
      disposed = true
      clearTimeout(timer)
      for (const watcher of watchers.values()) watcher.close()
      watchers.clear()
    },
  }
}
