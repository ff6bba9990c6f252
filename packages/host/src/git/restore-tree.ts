import { chmod, lstat, mkdir, readdir, rmdir, symlink, unlink, writeFile } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { type GitContext, gitOk } from './git-runner.js'

/** One path that differs between two trees, as `git diff-tree -r --raw` reports it. */
export interface TreeChange {
  status: 'A' | 'D' | 'M' | 'T'
  path: string
  newMode: string
  newBlob: string
}

/** Lists the file-level differences from tree `from` to tree `to` (no rename detection). */
export async function treeChanges(context: GitContext, from: string, to: string): Promise<TreeChange[]> {
  const raw = (await gitOk(context, ['diff-tree', '-r', '-z', '--raw', '--no-renames', from, to])).toString(
    'utf8',
  )
  const parts = raw.split('\0')
  const changes: TreeChange[] = []
  for (let index = 0; index + 1 < parts.length; index += 2) {
    // ":<old mode> <new mode> <old sha> <new sha> <status>" then the path.
    const [, newMode, , newBlob, status] = (parts[index] ?? '').slice(1).split(' ')
    const path = parts[index + 1] ?? ''
    if (status === 'A' || status === 'D' || status === 'M' || status === 'T') {
      changes.push({ status, path, newMode: newMode ?? '', newBlob: newBlob ?? '' })
    }
  }
  return changes
}

/**
 * Makes the work tree match tree `to`, given that it currently matches tree `from`: removes what
 * `to` lacks, writes what it has differently (contents, exec bit, symlinks), and prunes
 * directories left empty. Paths in neither tree (ignored, too large) are not touched.
 */
export async function applyTreeChanges(context: GitContext, changes: readonly TreeChange[]): Promise<void> {
  const root = context.workTree
  const removals = changes.filter((change) => change.status !== 'A')
  for (const change of removals) {
    // Modified files are rewritten below; removing first also replaces a symlink rather than
    // writing through it.
    await unlink(join(root, change.path)).catch(() => undefined)
  }
  const emptied = new Set(
    removals.filter((change) => change.status === 'D').map((change) => dirname(change.path)),
  )
  for (const dir of [...emptied].sort((a, b) => b.length - a.length)) await pruneEmptyDirs(root, dir)
  const writes = changes.filter((change) => change.status !== 'D' && change.newMode !== '160000')
  const blobs = await readBlobs(context, [...new Set(writes.map((change) => change.newBlob))])
  for (const change of writes) {
    const target = join(root, change.path)
    await makeParentDirs(root, change.path)
    const content = blobs.get(change.newBlob) ?? Buffer.alloc(0)
    if (change.newMode === '120000') {
      await symlink(content.toString('utf8'), target)
    } else {
      await writeFile(target, content)
      await chmod(target, change.newMode === '100755' ? 0o755 : 0o644)
    }
  }
}

// A file may now sit where a directory was (or the reverse); clear whichever is in the way.
async function makeParentDirs(root: string, path: string): Promise<void> {
  const parent = dirname(path)
  if (parent === '.') return
  let current = root
  for (const segment of parent.split('/')) {
    current = join(current, segment)
    const info = await lstat(current).catch(() => undefined)
    if (info !== undefined && !info.isDirectory()) await unlink(current)
  }
  await mkdir(join(root, parent), { recursive: true })
}

async function pruneEmptyDirs(root: string, dir: string): Promise<void> {
  let current = dir
  while (current !== '.' && current !== '' && !relative(root, join(root, current)).startsWith(`..${sep}`)) {
    const entries = await readdir(join(root, current)).catch(() => undefined)
    if (entries === undefined || entries.length > 0) return
    await rmdir(join(root, current)).catch(() => undefined)
    current = dirname(current)
  }
}

const BATCH = 256

/** Reads blobs by id with `git cat-file --batch`, a few hundred per process. */
async function readBlobs(context: GitContext, ids: readonly string[]): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>()
  for (let start = 0; start < ids.length; start += BATCH) {
    const slice = ids.slice(start, start + BATCH)
    const output = await gitOk(context, ['cat-file', '--batch'], { input: `${slice.join('\n')}\n` })
    let offset = 0
    for (const id of slice) {
      const headerEnd = output.indexOf(0x0a, offset)
      const header = output.subarray(offset, headerEnd).toString('utf8')
      // "<sha> blob <size>", or "<sha> missing".
      const size = Number(header.split(' ')[2])
      if (!Number.isFinite(size))
        throw new Error(`checkpoint object ${id} is missing from the shadow repository`)
      blobs.set(id, Buffer.from(output.subarray(headerEnd + 1, headerEnd + 1 + size)))
      offset = headerEnd + 1 + size + 1
    }
  }
  return blobs
}
