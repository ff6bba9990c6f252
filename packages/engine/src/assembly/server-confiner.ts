import { statSync } from 'node:fs'
import { dirname, isAbsolute, resolve } from 'node:path'
import { type ArgvConfiner, type CommandSandbox, confineArgv } from '@z-engine/host'

/** What a session's programs are confined to. */
export interface ServerConfinerInput {
  sandbox: CommandSandbox
  projectRoot: string
  home: string
  /** The session's additional directories, read when a program starts. */
  additionalDirectories: () => readonly string[]
}

/**
 * The one confinement entry for programs the engine starts itself (issue 34): each runs in the same
 * view as a write-confined Bash command (project writable, home empty, secrets and deny-ruled paths
 * masked), with its own program files shown read-only.
 *
 * - `lsp`: the network as `[shell.sandbox] allow_network` says.
 * - `mcp`: the network on (a server exists to reach its service), and the folders named in its
 *   arguments or as its cwd writable like additional directories (`server-filesystem /data`
 *   works on what it was configured for) — never the home, a parent of it or `/`.
 */
export function serverConfiner(input: ServerConfinerInput, kind: 'lsp' | 'mcp'): ArgvConfiner {
  return (argv, cwd) => {
    const request = {
      root: input.projectRoot,
      additionalDirectories: [
        ...input.additionalDirectories(),
        ...(kind === 'mcp' ? namedFolders([...argv.slice(1), cwd], input.home) : []),
      ],
      ...(kind === 'mcp' ? { network: true } : {}),
    }
    return confineArgv(input.sandbox, request, argv, cwd)
  }
}

/** The existing folders among `paths` (absolute ones), except the home, its parents and `/`. */
function namedFolders(paths: readonly string[], home: string): string[] {
  const folders: string[] = []
  for (const path of paths) {
    if (!isAbsolute(path)) continue
    const info = statSync(path, { throwIfNoEntry: false })
    if (!info?.isDirectory()) continue
    const folder = resolve(path)
    const tooWide =
      folder === dirname(folder) ||
      home === folder ||
      home.startsWith(folder.endsWith('/') ? folder : `${folder}/`)
    if (!tooWide) folders.push(folder)
  }
  return folders
}
