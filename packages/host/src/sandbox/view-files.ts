import { mkdtemp, realpath, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { projectGit } from '../git/project-git.js'
import type { BoundFile } from './profile.js'

/**
 * The files the engine puts into a confined view's empty home: a `~/.gitconfig` holding only the
 * user's git identity (name and email), so commits made inside work while the real file (which may
 * hold a token, an `includeIf`, a credential helper or a `core.sshCommand`) stays out of sight.
 * Written once per sandbox into a folder of its own, outside everything a confined command can write.
 */
export async function prepareViewFiles(
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ dir: string; files: BoundFile[] }> {
  const dir = await realpath(await mkdtemp(join(tmpdir(), 'z-engine-view-')))
  const name = await gitGlobal('user.name', home, env, dir)
  const email = await gitGlobal('user.email', home, env, dir)
  if (name === undefined && email === undefined) return { dir, files: [] }
  const lines = ['[user]']
  if (name !== undefined) lines.push(`\tname = ${quoted(name)}`)
  if (email !== undefined) lines.push(`\temail = ${quoted(email)}`)
  const source = join(dir, 'gitconfig')
  await writeFile(source, `${lines.join('\n')}\n`, { mode: 0o644 })
  return { dir, files: [{ source, path: join(home, '.gitconfig') }] }
}

/**
 * One key of the user's global git config (undefined when unset or git is missing), asked from
 * `cwd` (the engine's own folder: no repository's config is read on the way).
 */
async function gitGlobal(
  key: string,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): Promise<string | undefined> {
  const childEnv: Record<string, string> = { HOME: home, PATH: env.PATH ?? '/usr/bin:/bin' }
  if (env.XDG_CONFIG_HOME !== undefined) childEnv.XDG_CONFIG_HOME = env.XDG_CONFIG_HOME
  if (env.GIT_CONFIG_GLOBAL !== undefined) childEnv.GIT_CONFIG_GLOBAL = env.GIT_CONFIG_GLOBAL
  const result = await projectGit(['config', '--global', '--get', key], { cwd, env: childEnv })
  const value = result.stdout.trim()
  return !result.ok || value === '' ? undefined : value
}

/** A git config value in double quotes (backslash and quote escaped; newlines dropped). */
function quoted(value: string): string {
  return `"${value
    .replace(/[\r\n]/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')}"`
}
