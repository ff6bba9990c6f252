import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { pathExists } from '@z-engine/host'
import { isWithin, normalizePath, type Rule } from '@z-engine/policy'

/** At most this many entries are looked at per walk (a huge tree is searched this far). */
const MAX_ENTRIES = 20_000
/** Folders not walked into: git's own store and installed dependencies. */
const SKIPPED = new Set(['.git', 'node_modules'])

/** Where the deny rules are anchored and which folders a confined command sees. */
export interface DeniedReadInput {
  /** The `Read(...)` deny rules (other rules are ignored). */
  deny: readonly Rule[]
  projectRoot: string
  home: string
  /** Folders of the view to search for unanchored or glob patterns (the project, added folders). */
  roots: readonly string[]
  /** Whether a Read deny rule covers an absolute path (the policy's own matcher). */
  readDenied: (path: string) => boolean
}

/**
 * The existing paths a confined view must mask so that `Read(...)` deny rules hold inside it too
 * (issue 34): a literal pattern (`Read(./.env)`, `Read(~/.config/app/token)`) names its path; a
 * pattern with a glob or without an anchor (`Read(**\/.env)`, `Read(secrets/**)`) is searched for in
 * the view's folders, at most {@link MAX_ENTRIES} entries, `.git` and `node_modules` skipped. A
 * folder that matches is masked whole. A bare `Read` deny rule masks nothing (it refuses every read
 * tool; confined commands then ask).
 */
export async function deniedReadPaths(input: DeniedReadInput): Promise<string[]> {
  const found = new Set<string>()
  let search = false
  for (const rule of input.deny) {
    const matcher = rule.matcher
    if (matcher.type !== 'path' || matcher.access !== 'read') continue
    // `secrets/**` masks the folder `secrets` whole.
    const pattern = matcher.pattern.endsWith('/**') ? matcher.pattern.slice(0, -3) : matcher.pattern
    const literal = pattern !== '' && !/[*?[\]{}()!+@]/.test(pattern)
    if (literal && matcher.anchored) {
      const base = matcher.base === 'home' ? input.home : matcher.base === 'project' ? input.projectRoot : '/'
      const path = normalizePath(join(base, pattern))
      if (await pathExists(path, { followLinks: false })) found.add(path)
    } else search = true
  }
  if (search) {
    let budget = MAX_ENTRIES
    const queue = [...input.roots]
    while (queue.length > 0 && budget > 0) {
      const dir = queue.shift() as string
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
      for (const entry of entries) {
        if (budget-- <= 0) break
        const path = join(dir, entry.name)
        if (input.readDenied(path)) {
          found.add(path)
          continue
        }
        if (entry.isDirectory() && !SKIPPED.has(entry.name)) queue.push(path)
      }
    }
  }
  // A path inside another masked one needs no mask of its own.
  const paths = [...found].sort()
  return paths.filter((path) => !paths.some((other) => other !== path && isWithin(path, other)))
}
