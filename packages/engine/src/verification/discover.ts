import { readdir, readFile } from 'node:fs/promises'
import { isAbsolute, join, resolve } from 'node:path'
import type { CheckSettings } from '@z-engine/protocol'
import type { CheckInfo } from '@z-engine/tools'
import { FILES_READ, planChecks } from './discover-plan.js'

/** Bytes of a root file discovery reads at most (a huge Makefile is not parsed whole). */
const MAX_FILE_BYTES = 256 * 1024

/**
 * The project's checks (spec 000 "Verification"): the configured `[[verification.checks]]` first
 * (a configured id replaces a discovered one), then what the root's files declare. Reads the root
 * listing and a handful of files; never runs anything.
 */
export async function discoverChecks(
  projectRoot: string,
  configured: readonly CheckSettings[],
): Promise<CheckInfo[]> {
  const entries = await readdir(projectRoot).catch(() => [] as string[])
  const names = new Set(entries)
  const files: Record<string, string> = {}
  await Promise.all(
    FILES_READ.filter((name) => names.has(name)).map(async (name) => {
      const text = await readFile(join(projectRoot, name), 'utf8').catch(() => undefined)
      if (text !== undefined) files[name] = text.slice(0, MAX_FILE_BYTES)
    }),
  )
  const own: CheckInfo[] = configured.map((check) => ({
    id: check.id,
    // A configured check proves a change unless it says it is only a lint or other check.
    kind: check.kind ?? 'test',
    command: check.command,
    source: 'settings [[verification.checks]]',
    cwd:
      check.cwd === undefined
        ? projectRoot
        : isAbsolute(check.cwd)
          ? check.cwd
          : resolve(projectRoot, check.cwd),
    ...(check.timeout_secs !== undefined ? { timeoutMs: check.timeout_secs * 1000 } : {}),
  }))
  const taken = new Set(own.map((check) => check.id))
  const discovered = planChecks({ entries: names, files }, projectRoot).filter(
    (check) => !taken.has(check.id),
  )
  return [...own, ...discovered]
}
