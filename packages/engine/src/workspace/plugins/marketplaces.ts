import { randomUUID } from 'node:crypto'
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Settings } from '@z-engine/protocol'
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

/** Reads `<root>/.claude-plugin/marketplace.json`. */
export async function readMarketplace(root: string): Promise<PluginResult<MarketplaceManifest>> {
  const file = join(root, '.claude-plugin', 'marketplace.json')
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return {
      ok: false,
      error:
        code === 'ENOENT'
          ? `${root} is not a marketplace: it has no .claude-plugin/marketplace.json`
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
): Promise<PluginResult<KnownMarketplace & { manifest: MarketplaceManifest }>> {
  const read = await readPluginRegistry(paths.dataDir)
  if (!read.ok) return read
  const registry = read.registry
  const where = classifyMarketplaceSource(source, paths.cwd)
  let root: string
  let clone: string | undefined
  if (where.kind === 'directory') {
    if (!(await stat(where.path).catch(() => undefined))?.isDirectory())
      return {
        ok: false,
        error: `${where.path} is not a folder; give a marketplace folder, a git URL or owner/repo`,
      }
    root = where.path
  } else {
    clone = join(pluginsDir(paths.dataDir), 'marketplaces', `.clone-${randomUUID()}`)
    await mkdir(join(pluginsDir(paths.dataDir), 'marketplaces'), { recursive: true })
    const cloned = await runSystemGit(
      ['clone', '--depth', '1', '--no-recurse-submodules', '--quiet', '--', where.url, clone],
      {
        env: paths.env,
      },
    )
    if (!cloned.ok) {
      await rm(clone, { recursive: true, force: true })
      return { ok: false, error: `could not clone ${where.url}: ${cloned.error}` }
    }
    root = clone
  }
  const manifest = await readMarketplace(root)
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
  const entry: KnownMarketplace = {
    name,
    source,
    kind: where.kind,
    root,
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
      const pulled = await runSystemGit(['pull', '--ff-only', '--quiet'], { cwd: entry.root, env: paths.env })
      if (!pulled.ok) {
        results.push({ name: each, error: pulled.error })
        continue
      }
    }
    const manifest = await readMarketplace(entry.root)
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
  if (entry.kind === 'git') await rm(entry.root, { recursive: true, force: true })
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
    }
    const manifest = await readMarketplace(entry.root)
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
      listings.push({ name, source: declared.source, status: 'declared' })
  return { ok: true, value: listings }
}

/** The error for a marketplace name nobody added. */
export function unknownMarketplace(registry: PluginRegistry, name: string): { ok: false; error: string } {
  const known = Object.keys(registry.marketplaces)
  return {
    ok: false,
    error: `no marketplace named ${name}${known.length > 0 ? ` (added: ${known.join(', ')})` : ''}; add one with z-engine plugin marketplace add <folder | git URL | owner/repo>`,
  }
}
