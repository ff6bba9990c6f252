import { existsSync, type FSWatcher, watch } from 'node:fs'
import { basename, dirname, isAbsolute, join } from 'node:path'
import type { HooksConfig } from './types.js'

/** What happened to a watched file, in Claude Code's words (`event` on FileChanged's stdin). */
export type FileChangeKind = 'change' | 'add' | 'unlink'

/**
 * The files FileChanged hooks watch, as Claude Code reads them: each name of each FileChanged
 * matcher (`.envrc|.env`), relative names in the project root.
 */
export function fileChangedPaths(config: HooksConfig, projectRoot: string): string[] {
  const paths = new Set<string>()
  for (const hook of config.FileChanged ?? []) {
    for (const name of (hook.matcher ?? '').split('|').map((part) => part.trim())) {
      if (name === '' || name === '*') continue
      paths.add(isAbsolute(name) ? name : join(projectRoot, name))
    }
  }
  return [...paths]
}

/**
 * Watches `paths` (each through its folder, so a file that appears or goes is seen too) and calls
 * `onChange` once per burst of changes to one file, `debounceMs` after the last (editors write in
 * several steps). `close` stops every watcher and pending call.
 */
export function watchFiles(
  paths: readonly string[],
  onChange: (path: string, kind: FileChangeKind) => void,
  debounceMs = 200,
): { close(): void } {
  const watchers: FSWatcher[] = []
  const pending = new Map<string, NodeJS.Timeout>()
  const existed = new Map(paths.map((path) => [path, existsSync(path)]))
  const byFolder = new Map<string, Set<string>>()
  for (const path of paths) {
    const folder = dirname(path)
    byFolder.set(folder, (byFolder.get(folder) ?? new Set()).add(basename(path)))
  }
  const settle = (path: string) => {
    pending.delete(path)
    const before = existed.get(path) ?? false
    const now = existsSync(path)
    existed.set(path, now)
    if (!before && !now) return
    onChange(path, before && now ? 'change' : now ? 'add' : 'unlink')
  }
  for (const [folder, names] of byFolder) {
    try {
      const watcher = watch(folder, { persistent: false }, (_event, name) => {
        if (name === null || !names.has(name.toString())) return
        const path = join(folder, name.toString())
        clearTimeout(pending.get(path))
        pending.set(
          path,
          setTimeout(() => settle(path), debounceMs),
        )
      })
      // A folder that goes away ends its watcher; nothing else is reported for it.
      watcher.on('error', () => watcher.close())
      watchers.push(watcher)
    } catch {
      // A folder that does not exist has nothing to watch (as Claude Code's watcher ignores it).
    }
  }
  return {
    close() {
      for (const watcher of watchers) watcher.close()
      for (const timer of pending.values()) clearTimeout(timer)
      pending.clear()
    },
  }
}
