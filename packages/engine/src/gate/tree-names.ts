import { type Dirent, lstatSync, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** At most this many names are read from one folder tree; a larger one counts as unknown. */
export const MAX_TREE_NAMES = 10_000

/**
 * The names inside the folder `dir` as paths relative to it, read without following links (a
 * link is a name; what it points to is not walked): `[]` when `dir` is not a folder, undefined
 * when it holds more than {@link MAX_TREE_NAMES} names or a part cannot be read (the policy then
 * judges the copy as bringing any name). For judging `cp -r dir out` by what it creates (issue 34).
 */
export function treeNamesOnDisk(dir: string, limit = MAX_TREE_NAMES): readonly string[] | undefined {
  try {
    if (!lstatSync(dir).isDirectory()) return []
  } catch {
    return []
  }
  const names: string[] = []
  const pending = ['']
  while (pending.length > 0) {
    const relative = pending.pop() as string
    let entries: Dirent[]
    try {
      entries = readdirSync(join(dir, relative), { withFileTypes: true })
    } catch {
      return undefined
    }
    for (const entry of entries) {
      const name = relative === '' ? entry.name : `${relative}/${entry.name}`
      names.push(name)
      if (names.length > limit) return undefined
      if (entry.isDirectory()) pending.push(name)
    }
  }
  return names
}
