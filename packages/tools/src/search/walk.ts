import { type Dirent, existsSync, readFileSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import ignore, { type Ignore } from 'ignore'
import type { Overrides } from './overrides.js'
import { VCS_DIRS } from './overrides.js'

/**
 * The built-in file walk, matching ripgrep's selection (`--hidden --no-require-git
 * --no-ignore-global`, VCS folders excluded): `.gitignore`, `.ignore` and `.rgignore` files of the
 * folder and its parents, `.git/info/exclude`, hidden files included, symbolic links not followed.
 */

/** Ignore-file categories, strongest first (ripgrep: .rgignore beats .ignore beats .gitignore). */
const CATEGORIES = ['.rgignore', '.ignore', '.gitignore', 'exclude'] as const
type Category = (typeof CATEGORIES)[number]

interface Level {
  dir: string
  matchers: Partial<Record<Category, Ignore>>
  /** The folder holds `.git`: gitignore files above it do not apply below it. */
  hasGit: boolean
  /** Categories not applied: they ignore the walk's start folder itself, which was given explicitly. */
  suppressed?: Set<Category>
}

/** What to walk. */
export interface WalkOptions {
  /** A folder (walked) or a file (returned as is: explicit files are never filtered). */
  root: string
  overrides?: Overrides
  /** Keeps only file names this accepts (Grep's `type`). */
  fileFilter?: (fileName: string) => boolean
  signal?: AbortSignal
}

function loadLevel(dir: string): Level {
  const matchers: Partial<Record<Category, Ignore>> = {}
  for (const category of CATEGORIES) {
    const file = category === 'exclude' ? join(dir, '.git', 'info', 'exclude') : join(dir, category)
    let content: string
    try {
      content = readFileSync(file, 'utf8')
    } catch {
      continue
    }
    matchers[category] = ignore({ allowRelativePaths: true }).add(content)
  }
  return { dir, matchers, hasGit: existsSync(join(dir, '.git')) }
}

/** Whether ignore files of `levels` (outermost first) exclude `path`. */
function isIgnored(levels: Level[], path: string, isDir: boolean): boolean {
  for (const category of CATEGORIES) {
    const gitLike = category === '.gitignore' || category === 'exclude'
    let sawGit = false
    for (let index = levels.length - 1; index >= 0; index -= 1) {
      const level = levels[index]!
      const matcher = level.matchers[category]
      if (matcher && !(gitLike && sawGit) && !level.suppressed?.has(category)) {
        const rel = relative(level.dir, path).split(sep).join('/')
        if (rel !== '' && !rel.startsWith('..')) {
          const result = safeTest(matcher, isDir ? `${rel}/` : rel)
          if (result.ignored) return true
          if (result.unignored) return false
        }
      }
      sawGit ||= level.hasGit
    }
  }
  return false
}

function safeTest(matcher: Ignore, path: string): { ignored: boolean; unignored: boolean } {
  try {
    return matcher.test(path)
  } catch {
    return { ignored: false, unignored: false }
  }
}

/** Every selected file under `options.root`, absolute, in a stable (sorted) order. */
export async function walkFiles(options: WalkOptions): Promise<string[]> {
  const rootInfo = await stat(options.root)
  if (!rootInfo.isDirectory()) return [options.root]
  const parents: Level[] = []
  for (let dir = dirname(options.root); ; dir = dirname(dir)) {
    parents.unshift(loadLevel(dir))
    if (dirname(dir) === dir) break
  }
  // ripgrep matches ignore rules against each walked path only, so a folder given explicitly is
  // searched even when ignored (`node_modules/pkg`). The `ignore` package also tests parents, so
  // rules of outer folders that ignore the start folder itself are left out for this walk.
  for (const level of parents) {
    const rel = relative(level.dir, options.root).split(sep).join('/')
    for (const category of CATEGORIES) {
      const matcher = level.matchers[category]
      if (!matcher || !safeTest(matcher, `${rel}/`).ignored) continue
      level.suppressed ??= new Set()
      level.suppressed.add(category)
    }
  }
  const files: string[] = []
  const visit = async (dir: string, levels: Level[]): Promise<void> => {
    if (options.signal?.aborted) return
    let entries: Dirent[]
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch {
      return
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    const subdirs: string[] = []
    for (const entry of entries) {
      if (VCS_DIRS.includes(entry.name)) continue
      const isDir = entry.isDirectory()
      if (!isDir && !entry.isFile()) continue
      const path = join(dir, entry.name)
      const override =
        options.overrides?.match(relative(options.root, path).split(sep).join('/'), isDir) ?? 'none'
      if (override === 'ignore') continue
      if (override === 'none') {
        if (isIgnored(levels, path, isDir)) continue
        if (!isDir && options.fileFilter && !options.fileFilter(entry.name)) continue
      }
      if (isDir) subdirs.push(path)
      else files.push(path)
    }
    for (const sub of subdirs) await visit(sub, [...levels, loadLevel(sub)])
  }
  await visit(options.root, [...parents, loadLevel(options.root)])
  return files
}
