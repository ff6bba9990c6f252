import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { lstat, mkdir, readdir, readFile, readlink, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/** Test helper: every file under `root` as path → mode and content hash (symlinks by target). */
export async function treeState(
  root: string,
  options: { skipDotGit?: boolean } = {},
): Promise<Map<string, string>> {
  const state = new Map<string, string>()
  async function walk(dir: string, prefix: string): Promise<void> {
    for (const name of (await readdir(dir)).sort()) {
      if (name === '.git' && options.skipDotGit !== false) continue
      const path = join(dir, name)
      const relative = prefix === '' ? name : `${prefix}/${name}`
      const info = await lstat(path)
      if (info.isSymbolicLink()) state.set(relative, `link:${await readlink(path)}`)
      else if (info.isDirectory()) await walk(path, relative)
      else {
        const digest = createHash('sha256')
          .update(await readFile(path))
          .digest('hex')
        state.set(relative, `${info.mode & 0o111 ? 'x' : '-'}:${digest}`)
      }
    }
  }
  await walk(root, '')
  return state
}

/** Test helper: every file of a `.git` directory with its content hash (hooks, refs, index, config). */
export async function dotGitState(root: string): Promise<Map<string, string>> {
  return treeState(join(root, '.git'), { skipDotGit: false })
}

/** Test helper: writes files (creating directories). */
export async function writeFiles(root: string, files: Record<string, string | Buffer>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true })
    await writeFile(join(root, path), content)
  }
}

/** Test helper: runs git in a real repository with a fixed identity. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync(
    'git',
    ['-c', 'user.name=t', '-c', 'user.email=t@t', '-c', 'init.defaultBranch=main', ...args],
    {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' },
    },
  )
}
