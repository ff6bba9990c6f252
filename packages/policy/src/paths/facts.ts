import type { GitConfigEntry } from '../shell/git-config.js'
import { normalizePath } from './normalize.js'

/**
 * What the engine found on disk about paths, handed to the policy as facts so the policy itself
 * does no I/O. The policy decides on a path as given AND on its real path: a repository can ship
 * `lnk -> $HOME` or `g -> .git`, and the lexical path says nothing about where those lead.
 */
export interface PathFacts {
  /**
   * The real path of an absolute, normalized path: every symlink resolved (a dangling link to its
   * target); for a path that does not exist, the real path of its nearest existing ancestor joined
   * with the rest. Undefined when it cannot be told (a link loop, an unreadable folder): the
   * policy then never allows without asking.
   */
  realPath(path: string): string | undefined
  /** The folder `core.hooksPath` names in the project's git config (absolute, as given), if set. */
  hooksPath?: string | undefined
  /**
   * The top folder of the git repository that `dir` lies in (a work tree holding `.git`, or a
   * bare repository), or undefined when none. Lets shell decisions tell the project's own
   * repository from another one whose config git would run.
   */
  repositoryOf?(dir: string): string | undefined
  /**
   * The git configuration git would use in `dir` (every scope, includes followed; read without
   * running anything), or undefined when it cannot be told. When the engine gives this, git is
   * proven read-only only in a repository whose own configuration names no program the engine
   * cannot neutralise (see `repositoryGitProgram`).
   */
  gitConfig?(dir: string): readonly GitConfigEntry[] | undefined
  /**
   * The names inside a folder, as paths relative to it (`lib`, `lib/a.js`, `.git/config`), read
   * without following links and at most a bounded number; `[]` for a path that is not a folder;
   * undefined when it holds more or cannot be read. A copy or move of the folder (`cp -r vendor
   * out`) is judged by the names it creates from these.
   */
  treeNames?(dir: string): readonly string[] | undefined
}

/** How many links one resolution follows before it gives up (Linux's MAXSYMLINKS). */
const MAX_LINKS = 40

/**
 * A pure model of {@link PathFacts} over a table of symlinks (absolute link path → target as
 * `readlink` prints it, relative to the link's folder or absolute). For tests and for callers that
 * describe links instead of touching a disk; resolves component by component like the kernel.
 */
export function pathFactsFromLinks(links: Readonly<Record<string, string>>): PathFacts {
  const table = new Map(Object.entries(links).map(([link, target]) => [normalizePath(link), target]))
  return {
    realPath(path: string): string | undefined {
      let pending = normalizePath(path).split('/').filter(Boolean)
      let resolved = ''
      let hops = 0
      while (pending.length > 0) {
        const segment = pending.shift() as string
        if (segment === '.') continue
        const candidate =
          segment === '..' ? resolved.slice(0, resolved.lastIndexOf('/')) : `${resolved}/${segment}`
        const target = table.get(candidate === '' ? '/' : candidate)
        if (target === undefined) {
          resolved = candidate
          continue
        }
        hops += 1
        if (hops > MAX_LINKS) return undefined
        const rest = target.split('/').filter(Boolean)
        if (target.startsWith('/')) resolved = ''
        pending = [...rest, ...pending]
      }
      return resolved === '' ? '/' : resolved
    },
  }
}
