import { randomUUID } from 'node:crypto'
import { mkdir, readFile, realpath, rename, rm, stat } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve, sep } from 'node:path'
import type { Settings } from '@z-engine/protocol'
import { COMMIT_ID, cloneMarketplaceRepository } from './clone-source.js'
import { runSystemGit } from './git.js'
import {
  GITHUB_REPO,
  githubUrl,
  isGitUrl,
  type MarketplaceManifest,
  parseMarketplaceManifest,
} from './manifest.js'
import {
  type KnownMarketplace,
  type PluginRegistry,
  pluginsDir,
  readPluginRegistry,
  writePluginRegistry,
} from './registry.js'

/** What plugin administration needs: the data folder and the environment git runs with. */
export interface PluginPaths {
  dataDir: string
  env: Readonly<Record<string, string | undefined>>
  /** Relative folder sources resolve against it. */
  cwd: string
}

/** A result with an error a user can act on. */
export type PluginResult<T> = { ok: true; value: T } | { ok: false; error: string }

/** A marketplace as `plugin marketplace list` shows it. */
export interface MarketplaceListing {
  name: string
  source: string
  /** `added`: in the registry; `declared`: only named in settings (added on first install). */
  status: 'added' | 'declared'
  kind?: 'directory' | 'git'
  root?: string
  /** A git source's pin and checkout, as added or declared. */
  ref?: string
  path?: string
  sparsePaths?: string[]
  plugins?: Array<{ name: string; description?: string; version?: string }>
  error?: string
}

/** Where a source string points: a folder read in place, or a git repository to clone. */
export function classifyMarketplaceSource(
  source: string,
  cwd: string,
): { kind: 'directory'; path: string } | { kind: 'git'; url: string } {
  if (isGitUrl(source)) return { kind: 'git', url: source }
  if (GITHUB_REPO.test(source) && !source.startsWith('.')) return { kind: 'git', url: githubUrl(source) }
  return { kind: 'directory', path: resolve(cwd, source) }
}

/** How a git marketplace is checked out (Claude Code's marketplace source fields). */
export interface MarketplacePin {
  /** A branch or tag; a full commit id (40 or 64 hex digits) holds the marketplace at that commit. */
  ref?: string
  /** marketplace.json inside the repository (default `.claude-plugin/marketplace.json`). */
  path?: string
  /** The only folders checked out (sparse, cone mode); the folder of marketplace.json is added. */
  sparsePaths?: readonly string[]
}

/** The default place of marketplace.json in a marketplace. */
const MANIFEST_PATH = '.claude-plugin/marketplace.json'

/** Reads an added marketplace's marketplace.json (at its `path` when one was given). */
export function readKnownMarketplace(entry: KnownMarketplace): Promise<PluginResult<MarketplaceManifest>> {
  return readMarketplace(entry.root, entry.manifestFile)
}

/** Reads `<root>/.claude-plugin/marketplace.json`, or `file` when a `path` named another. */
export async function readMarketplace(
  root: string,
  file = join(root, '.claude-plugin', 'marketplace.json'),
): Promise<PluginResult<MarketplaceManifest>> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return {
      ok: false,
      error:
        code === 'ENOENT'
          ? file === join(root, '.claude-plugin', 'marketplace.json')
            ? `${root} is not a marketplace: it has no .claude-plugin/marketplace.json`
            : `${file} does not exist (the marketplace's path names it)`
          : `${file} could not be read (${code ?? String(error)})`,
    }
  }
  const parsed = parseMarketplaceManifest(text)
  return parsed.ok ? parsed : { ok: false, error: `${file} ${parsed.error}` }
}

/**
 * `plugin marketplace add`: a folder is read in place; a git URL or `owner/repo` is cloned with the
 * system git into the data folder. The marketplace's own `name` is the name it is known by.
 */
export async function addMarketplace(
  paths: PluginPaths,
  source: string,
  pin: MarketplacePin = {},
): Promise<PluginResult<KnownMarketplace & { manifest: MarketplaceManifest }>> {
  const read = await readPluginRegistry(paths.dataDir)
  if (!read.ok) return read
  const registry = read.registry
  const where = classifyMarketplaceSource(source, paths.cwd)
  const manifestPath = pin.path === undefined ? undefined : manifestPathError(pin.path)
  if (manifestPath !== undefined) return { ok: false, error: manifestPath }
  let root: string
  let clone: string | undefined
  if (where.kind === 'directory') {
    const pinned = (['ref', 'path', 'sparsePaths'] as const).filter((field) => pin[field] !== undefined)
    if (pinned.length > 0)
      return {
        ok: false,
        error: `${pinned.join(', ')} ${pinned.length === 1 ? 'applies' : 'apply'} only to a git marketplace; ${where.path} is a folder, read in place`,
      }
    if (!(await stat(where.path).catch(() => undefined))?.isDirectory())
      return {
        ok: false,
        error: `${where.path} is not a folder; give a marketplace folder, a git URL or owner/repo`,
      }
    root = where.path
  } else {
    clone = join(pluginsDir(paths.dataDir), 'marketplaces', `.clone-${randomUUID()}`)
    await mkdir(join(pluginsDir(paths.dataDir), 'marketplaces'), { recursive: true })
    const sparse = sparseFolders(pin)
    const cloned = await cloneMarketplaceRepository(
      where.url,
      clone,
      { ...(pin.ref !== undefined ? { ref: pin.ref } : {}), ...(sparse !== undefined ? { sparse } : {}) },
      paths.env,
    )
    if (!cloned.ok) {
      await rm(clone, { recursive: true, force: true })
      return { ok: false, error: `could not clone ${where.url}${describePin(pin)}: ${cloned.error}` }
    }
    root = clone
  }
  const located = await locateManifest(root, pin.path)
  const manifest = located.ok ? await readMarketplace(located.root, located.file) : located
  const discard = async () => {
    if (clone !== undefined) await rm(clone, { recursive: true, force: true })
  }
  if (!manifest.ok) {
    await discard()
    return manifest
  }
  const name = manifest.value.name
  const existing = registry.marketplaces[name]
  if (existing !== undefined) {
    await discard()
    return {
      ok: false,
      error: `a marketplace named ${name} is already added (from ${existing.source}); update it with z-engine plugin marketplace update ${name}, or remove it first`,
    }
  }
  if (clone !== undefined) {
    root = join(pluginsDir(paths.dataDir), 'marketplaces', name)
    await rm(root, { recursive: true, force: true })
    await rename(clone, root)
  }
  // The root and marketplace.json as they are in the checkout's final place.
  const final = located.ok && pin.path !== undefined ? await locateManifest(root, pin.path) : undefined
  const entry: KnownMarketplace = {
    name,
    source,
    kind: where.kind,
    root: final?.ok ? final.root : root,
    ...(final?.ok ? { manifestFile: final.file, ...(final.root !== root ? { checkout: root } : {}) } : {}),
    ...(pin.ref !== undefined ? { ref: pin.ref } : {}),
    ...(pin.path !== undefined ? { path: pin.path } : {}),
    ...(pin.sparsePaths !== undefined ? { sparsePaths: [...pin.sparsePaths] } : {}),
    addedAt: new Date().toISOString(),
  }
  registry.marketplaces[name] = entry
  await writePluginRegistry(paths.dataDir, registry)
  return { ok: true, value: { ...entry, manifest: manifest.value } }
}

/** `plugin marketplace update [name]`: pulls git marketplaces and re-reads every manifest. */
export async function updateMarketplaces(
  paths: PluginPaths,
  name?: string,
): Promise<PluginResult<Array<{ name: string; plugins: number } | { name: string; error: string }>>> {
  const read = await readPluginRegistry(paths.dataDir)
  if (!read.ok) return read
  const registry = read.registry
  const names = name === undefined ? Object.keys(registry.marketplaces).sort() : [name]
  if (name !== undefined && registry.marketplaces[name] === undefined)
    return unknownMarketplace(registry, name)
  const results: Array<{ name: string; plugins: number } | { name: string; error: string }> = []
  for (const each of names) {
    const entry = registry.marketplaces[each]!
    if (entry.kind === 'git') {
      const pulled = await refreshCheckout(entry, paths.env)
      if (!pulled.ok) {
        results.push({ name: each, error: pulled.error })
        continue
      }
    }
    const manifest = await readKnownMarketplace(entry)
    if (!manifest.ok) {
      results.push({ name: each, error: manifest.error })
      continue
    }
    entry.updatedAt = new Date().toISOString()
    results.push({ name: each, plugins: manifest.value.plugins.length })
  }
  await writePluginRegistry(paths.dataDir, registry)
  return { ok: true, value: results }
}

/**
 * `plugin marketplace remove`: forgets the marketplace, deletes its clone, and uninstalls the plugins
 * installed from it (their copies would otherwise outlive any way to update them).
 */
export async function removeMarketplace(
  paths: PluginPaths,
  name: string,
): Promise<PluginResult<{ uninstalled: string[] }>> {
  const read = await readPluginRegistry(paths.dataDir)
  if (!read.ok) return read
  const registry = read.registry
  const entry = registry.marketplaces[name]
  if (entry === undefined) return unknownMarketplace(registry, name)
  delete registry.marketplaces[name]
  const uninstalled: string[] = []
  for (const [id, plugin] of Object.entries(registry.plugins)) {
    if (plugin.marketplace !== name) continue
    delete registry.plugins[id]
    uninstalled.push(id)
  }
  await writePluginRegistry(paths.dataDir, registry)
  if (entry.kind === 'git') await rm(entry.checkout ?? entry.root, { recursive: true, force: true })
  await rm(join(pluginsDir(paths.dataDir), 'cache', name), { recursive: true, force: true })
  return { ok: true, value: { uninstalled } }
}

/** Every added marketplace with its plugins, and those settings declare but that are not added yet. */
export async function listMarketplaces(
  paths: PluginPaths,
  settings: Settings,
): Promise<PluginResult<MarketplaceListing[]>> {
  const read = await readPluginRegistry(paths.dataDir)
  if (!read.ok) return read
  const listings: MarketplaceListing[] = []
  for (const entry of Object.values(read.registry.marketplaces).sort((a, b) =>
    a.name.localeCompare(b.name),
  )) {
    const listing: MarketplaceListing = {
      name: entry.name,
      source: entry.source,
      status: 'added',
      kind: entry.kind,
      root: entry.root,
      ...(entry.ref !== undefined ? { ref: entry.ref } : {}),
      ...(entry.path !== undefined ? { path: entry.path } : {}),
      ...(entry.sparsePaths !== undefined ? { sparsePaths: entry.sparsePaths } : {}),
    }
    const manifest = await readKnownMarketplace(entry)
    if (manifest.ok)
      listing.plugins = manifest.value.plugins.map((plugin) => ({
        name: plugin.name,
        ...(plugin.description !== undefined ? { description: plugin.description } : {}),
        ...(plugin.version !== undefined ? { version: plugin.version } : {}),
      }))
    else listing.error = manifest.error
    listings.push(listing)
  }
  for (const [name, declared] of Object.entries(settings.plugins.marketplaces).sort(([a], [b]) =>
    a.localeCompare(b),
  ))
    if (read.registry.marketplaces[name] === undefined)
      listings.push({
        name,
        source: declared.source,
        status: 'declared',
        ...(declared.ref !== undefined ? { ref: declared.ref } : {}),
        ...(declared.path !== undefined ? { path: declared.path } : {}),
        ...(declared.sparse_paths !== undefined ? { sparsePaths: declared.sparse_paths } : {}),
      })
  return { ok: true, value: listings }
}

/** A declared marketplace's pin as `addMarketplace` takes it. */
export function declaredPin(declared: Settings['plugins']['marketplaces'][string]): MarketplacePin {
  return {
    ...(declared.ref !== undefined ? { ref: declared.ref } : {}),
    ...(declared.path !== undefined ? { path: declared.path } : {}),
    ...(declared.sparse_paths !== undefined ? { sparsePaths: declared.sparse_paths } : {}),
  }
}

/** Why a `path` cannot name marketplace.json (absolute, `..`, not a .json file), or undefined. */
function manifestPathError(path: string): string | undefined {
  const parts = path.split(/[\\/]/)
  if (isAbsolute(path) || parts.includes('..'))
    return `the marketplace path ${path} must be relative to the repository and stay inside it`
  if (!path.endsWith('.json')) return `the marketplace path ${path} must name a .json file (marketplace.json)`
  return undefined
}

/**
 * Where marketplace.json is in a checkout, and the marketplace root relative plugin sources resolve
 * against: the folder holding the folder of marketplace.json (Claude Code's "directory containing
 * .claude-plugin/"), never above the checkout. A path leading out through a link is refused.
 */
async function locateManifest(
  checkout: string,
  path: string | undefined,
): Promise<{ ok: true; root: string; file: string } | { ok: false; error: string }> {
  const file = join(checkout, ...(path ?? MANIFEST_PATH).split('/'))
  const top = await realpath(checkout)
  const real = await realpath(file).catch(() => undefined)
  if (real !== undefined && !real.startsWith(top + sep))
    return { ok: false, error: `the marketplace path ${path} leads outside the repository` }
  const parent = dirname(dirname(file))
  const root = parent === checkout || parent.startsWith(checkout + sep) ? parent : checkout
  return { ok: true, root, file }
}

/** The sparse folders to check out: the given ones, plus the folder of marketplace.json. */
function sparseFolders(pin: MarketplacePin): string[] | undefined {
  if (pin.sparsePaths === undefined || pin.sparsePaths.length === 0) return undefined
  const folder = dirname(pin.path ?? MANIFEST_PATH)
  return [...new Set([...pin.sparsePaths, ...(folder === '.' ? [] : [folder])])]
}

/** ` (ref …, path …, sparse …)` for messages, or nothing. */
function describePin(pin: MarketplacePin): string {
  const parts = [
    ...(pin.ref !== undefined ? [`ref ${pin.ref}`] : []),
    ...(pin.path !== undefined ? [`path ${pin.path}`] : []),
    ...(pin.sparsePaths !== undefined ? [`sparse ${pin.sparsePaths.join(', ')}`] : []),
  ]
  return parts.length > 0 ? ` (${parts.join(', ')})` : ''
}

/**
 * Brings a git marketplace's checkout up to date: a commit id never moves (Claude Code: refreshes
 * do not move it), a branch or tag is fetched again and checked out, and no pin pulls the branch.
 */
async function refreshCheckout(
  entry: KnownMarketplace,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ ok: true } | { ok: false; error: string }> {
  const cwd = entry.checkout ?? entry.root
  if (entry.ref !== undefined && COMMIT_ID.test(entry.ref)) return { ok: true }
  if (entry.ref === undefined) return runSystemGit(['pull', '--ff-only', '--quiet'], { cwd, env })
  const fetched = await runSystemGit(
    ['fetch', '--quiet', '--depth', '1', '--no-recurse-submodules', 'origin', entry.ref],
    { cwd, env },
  )
  if (!fetched.ok) return fetched
  return runSystemGit(['checkout', '--quiet', '--detach', 'FETCH_HEAD'], { cwd, env })
}

/** The error for a marketplace name nobody added. */
export function unknownMarketplace(registry: PluginRegistry, name: string): { ok: false; error: string } {
  const known = Object.keys(registry.marketplaces)
  return {
    ok: false,
    error: `no marketplace named ${name}${known.length > 0 ? ` (added: ${known.join(', ')})` : ''}; add one with z-engine plugin marketplace add <folder | git URL | owner/repo>`,
  }
}
