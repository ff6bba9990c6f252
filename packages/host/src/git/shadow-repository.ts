import { mkdir, readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { inflateSync } from 'node:zlib'
import { type GitContext, gitOk } from './git-runner.js'

const RAW_ATTRIBUTES = '* -text !eol -filter -ident !working-tree-encoding !diff\n'

/**
 * Creates the shadow repository when it is missing (or not a repository) and pins its attributes.
 * Throws what git or the file system threw.
 */
export async function prepareShadowRepository(context: GitContext): Promise<void> {
  // Checkpoints hold the project's files: private to the user, like session logs (0700).
  await mkdir(context.gitDir, { recursive: true, mode: 0o700 })
  // What git itself checks of a repository, read without starting git (each git process costs
  // ~10 ms of CPU, issue 17); a folder missing any of them is (re)initialised, as before.
  if (!(await looksLikeRepository(context.gitDir))) {
    await gitOk(context, ['init', '-q', '--bare', context.gitDir], { noWorkTree: true })
    await gitOk(context, ['config', 'core.bare', 'false'])
    await gitOk(context, ['config', 'core.logAllRefUpdates', 'false'])
  }
  // info/attributes outranks the project's .gitattributes: store bytes exactly as they are on
  // disk (no eol conversion, clean/smudge filters such as LFS, ident or re-encoding), so a
  // restore is byte-identical.
  await mkdir(join(context.gitDir, 'info'), { recursive: true })
  await writeFile(join(context.gitDir, 'info', 'attributes'), RAW_ATTRIBUTES)
}

/** Whether `gitDir` has what git requires of a repository: `HEAD`, `config`, `objects/`, `refs/`. */
async function looksLikeRepository(gitDir: string): Promise<boolean> {
  const kinds = await Promise.all(
    ['HEAD', 'config', 'objects', 'refs'].map((name) => stat(join(gitDir, name)).catch(() => undefined)),
  )
  const [head, config, objects, refs] = kinds
  return (
    head?.isFile() === true &&
    config?.isFile() === true &&
    objects?.isDirectory() === true &&
    refs?.isDirectory() === true
  )
}

/**
 * The tree of a commit stored as a loose object (how `commit-tree` writes one), read from its
 * zlib-compressed file (`commit <size>\0tree <id>\n…`) without starting git; undefined when the
 * object is packed (after `compact`) or unreadable, and the caller asks git.
 */
export async function looseCommitTree(gitDir: string, commit: string): Promise<string | undefined> {
  if (!/^[0-9a-f]{40,64}$/.test(commit)) return undefined
  try {
    const stored = await readFile(join(gitDir, 'objects', commit.slice(0, 2), commit.slice(2)))
    const head = inflateSync(stored).subarray(0, 200).toString('latin1')
    const match = /^commit \d+\0tree ([0-9a-f]{40,64})\n/.exec(head)
    return match?.[1]
  } catch {
    return undefined
  }
}
