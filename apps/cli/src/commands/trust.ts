import { realpath, stat } from 'node:fs/promises'
import { resolve } from 'node:path'
import { Engine } from '@z-engine/engine'
import { createTrustStore } from '@z-engine/engine/settings'
import { parseCommandArgs } from '../args.js'
import { EXIT, UsageError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { projectDir } from '../cwd.js'
import { printJson, printLines } from '../output.js'

const HELP = `Usage: z-engine trust [DIR] [--revoke | --status] [--json]

Trusts the workspace DIR (default: the current folder), as the chat's trust prompt does, so its
project settings apply in full: hooks, MCP servers, allow rules, environment and the other
categories an untrusted project may not set. For CI and scripts that have no terminal.

  --revoke   withdraw the trust (project settings may then only restrict again)
  --status   only say whether DIR is trusted
  --json     print { root, trusted, changed }
`

/** `z-engine trust`: records (or revokes) the user's trust in a workspace without a terminal. */
export async function main(io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.argv, {
    revoke: { type: 'boolean' },
    status: { type: 'boolean' },
    json: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout.write(HELP)
    return EXIT.ok
  }
  if (positionals.length > 1)
    throw new UsageError(`'trust' takes one folder (got ${positionals.length}); run it once per folder.`)
  if (values.revoke && values.status) throw new UsageError("'trust' takes --revoke or --status, not both.")
  const root = await workspaceRoot(io.cwd, positionals[0], io.env.HOME)
  const engine = await Engine.create({ env: io.env })
  const store = createTrustStore(engine.paths.configDir)
  const before = await store.isTrusted(root)
  const wanted = values.status ? before : !values.revoke
  if (wanted !== before) {
    const written = wanted ? await store.trust(root) : await store.untrust(root)
    if (!written.ok) {
      io.stderr.write(`z-engine trust: ${written.error}\n`)
      return EXIT.failed
    }
  }
  const changed = wanted !== before
  if (values.json) {
    printJson(io, { root, trusted: wanted, changed })
    return EXIT.ok
  }
  printLines(io, [sentence(root, wanted, changed), `(recorded in ${store.file})`])
  return EXIT.ok
}

function sentence(root: string, trusted: boolean, changed: boolean): string {
  if (trusted)
    return changed
      ? `Trusted ${root}: its project settings now apply in full.`
      : `${root} is trusted: its project settings apply in full.`
  return changed
    ? `No longer trusted: ${root}; its project settings may only restrict.`
    : `${root} is not trusted: its project settings may only restrict (run 'z-engine trust' to trust it).`
}

/**
 * The folder as sessions key it: resolved against the cwd, symlinks followed; must exist. With no
 * folder given, the project of the cwd (the repository root), as the chat and exec open it.
 */
async function workspaceRoot(
  cwd: string,
  given: string | undefined,
  home: string | undefined,
): Promise<string> {
  if (given === undefined) return projectDir(cwd, undefined, home)
  const dir = resolve(cwd, given ?? '.')
  const info = await stat(dir).catch(() => undefined)
  if (!info?.isDirectory()) throw new UsageError(`${dir} is not a folder; pass the project folder to trust.`)
  return realpath(dir)
}
