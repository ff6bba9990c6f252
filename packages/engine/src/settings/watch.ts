import { type FSWatcher, watch } from 'node:fs'
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
 * renaming are seen; folders that don't exist yet are skipped. Returns a disposable; never throws.
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
  const schedule = () => {
    if (disposed) return
    clearTimeout(timer)
    timer = setTimeout(() => {
      if (!disposed) onChange()
    }, debounceMs)
  }
  const watchers: FSWatcher[] = []
  for (const [folder, names] of byFolder) {
    try {
      const watcher = watch(folder, { persistent: false }, (_event, filename) => {
        // Some platforms omit the name; reloading is cheap, so treat that as a change.
        if (filename === null || names.has(filename.toString())) schedule()
      })
      watcher.on('error', () => watcher.close())
      watchers.push(watcher)
    } catch {
      // The folder doesn't exist (yet); a later reload or session open will pick the file up.
    }
  }
  return {
    dispose() {
      disposed = true
      clearTimeout(timer)
      for (const watcher of watchers) watcher.close()
    },
  }
}
