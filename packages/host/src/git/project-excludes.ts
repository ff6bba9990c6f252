import { readFile, stat } from 'node:fs/promises'
import { isAbsolute, join, resolve } from 'node:path'

/**
 * The `info/exclude` file of the repository a directory is the root of, if any, so the shadow
 * repository ignores what the project's own git ignores. Handles `.git` as a directory and as a
 * `gitdir:` file (worktrees, submodules). Never throws.
 */
export async function projectExcludesFile(root: string): Promise<string | undefined> {
  const dotGit = join(root, '.git')
  try {
    const info = await stat(dotGit)
    let gitDir = dotGit
    if (info.isFile()) {
      const match = /^gitdir:\s*(.+)$/m.exec(await readFile(dotGit, 'utf8'))
      if (match?.[1] === undefined) return undefined
      const target = match[1].trim()
      gitDir = isAbsolute(target) ? target : resolve(root, target)
      // A linked worktree keeps info/ in the common dir.
      const common = await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => undefined)
      if (common !== undefined) gitDir = resolve(gitDir, common.trim())
    }
    const exclude = join(gitDir, 'info', 'exclude')
    return (await stat(exclude)).isFile() ? exclude : undefined
  } catch {
    return undefined
  }
}
