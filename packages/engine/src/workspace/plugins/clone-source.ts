import { randomUUID } from 'node:crypto'
import { lstat, realpath, rename, rm } from 'node:fs/promises'
import { dirname, join, sep } from 'node:path'
import { type GitUrlChooser, runSystemGit } from './git.js'
import type { PluginSource } from './manifest.js'

type GitSource = Extract<PluginSource, { kind: 'git' }>

/** What to check out of a repository: a branch or tag, an exact commit, only some folders. */
interface Checkout {
  url: string
  ref?: string
  sha?: string
  /** Folders checked out sparsely (cone mode); none: the whole tree. */
  sparse?: readonly string[]
  chooser: GitUrlChooser
}

/** A full commit id (SHA-1 or SHA-256), which Claude Code reads as a pin wherever a ref is taken. */
export const COMMIT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/

/**
 * Clones a marketplace repository into `dest` (which must not exist): shallow, no submodules, at
 * `ref` (a branch or tag; a full commit id is that exact commit), only `sparse` folders when given.
 * The URL is the user's (typed, or in their settings), so git's local transports stay allowed.
 */
export async function cloneMarketplaceRepository(
  url: string,
  dest: string,
  pin: { ref?: string; sparse?: readonly string[] },
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const checkout: Checkout = {
    url,
    chooser: 'user',
    ...(pin.ref === undefined ? {} : COMMIT_ID.test(pin.ref) ? { sha: pin.ref } : { ref: pin.ref }),
    ...(pin.sparse !== undefined && pin.sparse.length > 0 ? { sparse: pin.sparse } : {}),
  }
  const cloned =
    checkout.sha === undefined ? await cloneAtRef(checkout, dest, env) : await fetchAtSha(checkout, dest, env)
  if (!cloned.ok) await rm(dest, { recursive: true, force: true })
  return cloned
}

/** How a git source reads in messages: its kind, URL, folder and pin. */
export function describeGitSource(source: GitSource): string {
  const pins = [
    ...(source.ref !== undefined ? [`ref ${source.ref}`] : []),
    ...(source.sha !== undefined ? [`sha ${source.sha}`] : []),
  ]
  return `${source.type} source ${source.url}${source.subdir !== undefined ? ` path ${source.subdir}` : ''}${pins.length > 0 ? ` (${pins.join(', ')})` : ''}`
}

/**
 * Clones a marketplace entry's git source into `dest` (which must not exist): shallow, no
 * submodules, at `ref` (branch or tag) or exactly at `sha`; a `git-subdir` source is checked out
 * sparsely and only its folder lands in `dest`. The URL is one a manifest chose, so git refuses
 * local transports (see `pluginGitEnv`). Errors say which step failed.
 */
export async function cloneGitSource(
  source: GitSource,
  dest: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const checkout = source.subdir === undefined ? dest : join(dirname(dest), `.checkout-${randomUUID()}`)
  const what: Checkout = {
    url: source.url,
    chooser: 'manifest',
    ...(source.ref !== undefined ? { ref: source.ref } : {}),
    ...(source.sha !== undefined ? { sha: source.sha } : {}),
    ...(source.subdir !== undefined ? { sparse: [source.subdir] } : {}),
  }
  const cloned =
    what.sha === undefined ? await cloneAtRef(what, checkout, env) : await fetchAtSha(what, checkout, env)
  if (!cloned.ok || source.subdir === undefined) {
    if (!cloned.ok) await rm(checkout, { recursive: true, force: true })
    return cloned
  }
  try {
    const folder = join(checkout, ...source.subdir.split('/'))
    const stats = await lstat(folder).catch(() => undefined)
    if (stats === undefined || !stats.isDirectory())
      return {
        ok: false,
        error: `the repository has no folder ${source.subdir}${stats?.isSymbolicLink() === true ? ' (it is a symbolic link)' : ''}`,
      }
    // A folder reached through a symbolic link on the way could lie outside the checkout.
    const [root, real] = await Promise.all([realpath(checkout), realpath(folder)])
    if (!real.startsWith(root + sep))
      return { ok: false, error: `the folder ${source.subdir} leads outside the repository` }
    await rename(real, dest)
    return { ok: true }
  } finally {
    await rm(checkout, { recursive: true, force: true })
  }
}

async function cloneAtRef(
  source: Checkout,
  dest: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const args = ['clone', '--depth', '1', '--no-recurse-submodules', '--quiet']
  if (source.ref !== undefined) args.push('--branch', source.ref)
  if (source.sparse !== undefined) args.push('--sparse')
  const cloned = await runSystemGit([...args, '--', source.url, dest], { env, chooser: source.chooser })
  if (!cloned.ok) return cloned
  if (source.sparse === undefined) return { ok: true }
  return runSystemGit(['sparse-checkout', 'set', '--cone', '--', ...source.sparse], {
    cwd: dest,
    env,
    chooser: source.chooser,
  })
}

/**
 * A pinned commit: fetched alone (`--depth 1`, which GitHub and protocol-v2 servers allow), else
 * from the history of `ref` (or the default branch) for servers that only serve advertised refs.
 * The checkout must then be exactly that commit.
 */
async function fetchAtSha(
  source: Checkout,
  dest: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const sha = source.sha as string
  const git = (args: string[]) => runSystemGit(args, { cwd: dest, env, chooser: source.chooser })
  const init = await runSystemGit(['init', '--quiet', '--', dest], { env, chooser: source.chooser })
  if (!init.ok) return init
  const steps: string[][] = [['remote', 'add', 'origin', '--', source.url]]
  if (source.sparse !== undefined) steps.push(['sparse-checkout', 'set', '--cone', '--', ...source.sparse])
  for (const step of steps) {
    const done = await git(step)
    if (!done.ok) return done
  }
  const alone = await git(['fetch', '--quiet', '--depth', '1', '--no-recurse-submodules', 'origin', sha])
  if (!alone.ok) {
    const history = await git([
      'fetch',
      '--quiet',
      '--no-recurse-submodules',
      'origin',
      ...(source.ref !== undefined ? [source.ref] : []),
    ])
    if (!history.ok) return history
  }
  const checkout = await git(['checkout', '--quiet', '--detach', sha])
  if (!checkout.ok)
    return {
      ok: false,
      error: `commit ${sha} is not in the repository${source.ref !== undefined ? ` (looked in ${source.ref})` : ''}: ${checkout.error}`,
    }
  const head = await git(['rev-parse', 'HEAD'])
  if (!head.ok) return head
  if (head.stdout.trim() !== sha)
    return { ok: false, error: `the checkout is at ${head.stdout.trim()}, not the pinned ${sha}` }
  return { ok: true }
}
