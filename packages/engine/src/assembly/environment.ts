import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { EnvironmentSnapshot } from '@z-engine/context'

/** Reads the current branch from `.git/HEAD` without running git (startup must stay fast). */
async function gitBranch(projectRoot: string): Promise<{ isGit: boolean; branch?: string }> {
  let folder = projectRoot
  for (;;) {
    const dotGit = join(folder, '.git')
    const info = await stat(dotGit).catch(() => undefined)
    if (info) {
      let headPath = join(dotGit, 'HEAD')
      if (info.isFile()) {
        // A worktree or submodule: `.git` is a file pointing at the real git dir.
        const pointer = await readFile(dotGit, 'utf8').catch(() => '')
        const match = /^gitdir:\s*(.+)$/m.exec(pointer)
        if (match?.[1]) headPath = join(match[1].startsWith('/') ? match[1] : join(folder, match[1]), 'HEAD')
      }
      const head = await readFile(headPath, 'utf8').catch(() => '')
      const ref = /^ref: refs\/heads\/(.+)$/m.exec(head)
      return ref?.[1] ? { isGit: true, branch: ref[1].trim() } : { isGit: true }
    }
    const parent = join(folder, '..')
    if (parent === folder) return { isGit: false }
    folder = parent
  }
}

/** The environment snapshot taken once when a session opens (so the prompt prefix never changes). */
export async function takeEnvironmentSnapshot(input: {
  projectRoot: string
  /** The main agent's starting folder (the project root, or a folder inside it). */
  cwd?: string
  modelRef: string
  env: Readonly<Record<string, string | undefined>>
  additionalDirectories: readonly string[]
  now: Date
}): Promise<EnvironmentSnapshot> {
  const git = await gitBranch(input.projectRoot)
  const shell = input.env.SHELL
  return {
    cwd: input.cwd ?? input.projectRoot,
    platform: process.platform,
    date: input.now.toISOString().slice(0, 10),
    isGitRepository: git.isGit,
    ...(git.branch !== undefined ? { gitBranch: git.branch } : {}),
    ...(shell !== undefined && shell !== '' ? { shell } : {}),
    model: input.modelRef,
    ...(input.additionalDirectories.length > 0 ? { additionalDirectories: input.additionalDirectories } : {}),
  }
}
