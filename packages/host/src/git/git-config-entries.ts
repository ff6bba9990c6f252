import { existsSync } from 'node:fs'
import { projectGitSync } from './project-git.js'

/** One config entry as git lists it. */
export interface GitConfigListing {
  scope: string
  key: string
}

/**
 * The git configuration git would use in `dir`, every scope with includes followed, as
 * `git config --list --includes --show-scope -z` prints it (reading config runs no program).
 * Undefined when git cannot tell (not installed, a broken config file).
 */
export function gitConfigEntries(
  dir: string,
  env: Readonly<Record<string, string | undefined>> = process.env,
): GitConfigListing[] | undefined {
  // A folder that does not exist holds no repository (and git cannot run there either).
  if (!existsSync(dir)) return []
  // The system file stays out of the listing, as it stays out of the lines run neutralised.
  const result = projectGitSync(['config', '--list', '--includes', '--show-scope', '-z'], { cwd: dir, env })
  if (!result.ok) {
    // No config at all (a folder outside any repository with no user config) exits 1 with nothing listed.
    return result.status === 1 && result.stdout === '' ? [] : undefined
  }
  const parts = result.stdout.split('\0')
  const entries: GitConfigListing[] = []
  for (let index = 0; index + 1 < parts.length; index += 2) {
    const scope = parts[index] as string
    const pair = parts[index + 1] as string
    const newline = pair.indexOf('\n')
    entries.push({ scope, key: newline < 0 ? pair : pair.slice(0, newline) })
  }
  return entries
}
