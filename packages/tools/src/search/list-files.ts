import { join } from 'node:path'
import { findRipgrep, isDirectory, runRipgrep, selectionArgs } from './grep-ripgrep.js'
import type { GrepEngine } from './grep-search.js'
import { walkFiles } from './walk.js'

/**
 * Every file under `root/subdir` that a search would see (gitignore-aware, hidden included, VCS
 * folders excluded), as paths relative to `root` — from `rg --files` or the built-in walk.
 */
export async function listFiles(
  root: string,
  subdir: string,
  engine: GrepEngine = 'auto',
  signal?: AbortSignal,
): Promise<{ ok: true; files: string[] } | { ok: false; message: string }> {
  const start = subdir === '' ? root : join(root, subdir)
  if (!(await isDirectory(start))) return { ok: true, files: [] }
  const rg = engine === 'builtin' ? undefined : findRipgrep()
  if (rg) {
    const run = await runRipgrep(
      rg,
      [...selectionArgs([], []), '--files', '--', subdir === '' ? '.' : subdir],
      signal,
      root,
    )
    if (run.code === 0 || run.code === 1 || run.stdout !== '') {
      const files = run.stdout.split('\n').filter((line) => line !== '')
      return { ok: true, files: files.map((file) => (file.startsWith('./') ? file.slice(2) : file)).sort() }
    }
    if (engine === 'ripgrep') return { ok: false, message: run.stderr.trim() || 'ripgrep failed' }
  }
  const files = await walkFiles({ root: start, ...(signal ? { signal } : {}) })
  return { ok: true, files: files.map((file) => file.slice(root.length + 1)).sort() }
}
