import { lstat, readFile, stat } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import { projectGit } from '../git/project-git.js'

/** Per repository root: the gitlinks its index held when its stat was `stamp`. */
const GITLINKS = new Map<string, { stamp: string; paths: string[] }>()

/**
 * Unstages what a write-confined command left that would make the user's own `git status` run a
 * program: a gitlink in the index (`git add sub`) whose work-tree `sub/.git` — a folder, or a
 * gitfile pointing anywhere but the protected `<git>/modules/` — was made or changed since `since`.
 * git enters such an embedded repository on a plain `git status` at the root and runs its config
 * (`core.fsmonitor`, a filter): issue 34. A nested `.git` made during the command is then removed
 * (`removeNewNested`); one that existed before is read-only in the view. Runs after the command, whose processes are gone by then.
 * Returns the paths it unstaged.
 */
export async function unstageEmbeddedRepositories(root: string, since: number): Promise<string[]> {
  const gitDir = join(root, '.git')
  if ((await stat(gitDir).catch(() => undefined))?.isDirectory() !== true) return []
  const gitlinks = await gitlinksOf(root, gitDir)
  const unstaged: string[] = []
  for (const path of gitlinks) {
    const dotGit = join(root, path, '.git')
    const info = await lstat(dotGit).catch(() => undefined)
    if (info === undefined || Math.max(info.ctimeMs, info.mtimeMs) < since) continue
    if (info.isFile() && (await pointsIntoModules(dotGit, gitDir))) continue
    const removed = await projectGit(['update-index', '--force-remove', '--', path], { cwd: root })
    if (removed.ok) unstaged.push(path)
  }
  if (unstaged.length > 0) GITLINKS.delete(root)
  return unstaged
}

/** The index's gitlink paths (mode 160000), listed again only when the index file changed. */
async function gitlinksOf(root: string, gitDir: string): Promise<string[]> {
  const index = await stat(join(gitDir, 'index')).catch(() => undefined)
  if (index === undefined) return []
  const stamp = `${index.mtimeMs}:${index.size}:${index.ino}`
  const cached = GITLINKS.get(root)
  if (cached?.stamp === stamp) return cached.paths
  const listed = await projectGit(['ls-files', '--stage', '-z'], { cwd: root, timeoutMs: 60_000 })
  if (!listed.ok) return []
  const paths = listed.stdout
    .split('\0')
    .filter((entry) => entry.startsWith('160000 '))
    .map((entry) => entry.slice(entry.indexOf('\t') + 1))
  GITLINKS.set(root, { stamp, paths })
  return paths
}

/** Whether a gitfile names a folder inside `<gitDir>/modules/` (protected: its config and hooks). */
async function pointsIntoModules(gitfile: string, gitDir: string): Promise<boolean> {
  const text = await readFile(gitfile, 'utf8').catch(() => '')
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text)
  if (!match?.[1]) return false
  const target = resolve(join(gitfile, '..'), match[1])
  return target.startsWith(join(gitDir, 'modules') + sep)
}
