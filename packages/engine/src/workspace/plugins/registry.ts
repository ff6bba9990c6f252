import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/** A marketplace the user added: where it came from and the folder holding its `.claude-plugin/`. */
export interface KnownMarketplace {
  name: string
  /** As given to `plugin marketplace add` (a folder, a git URL or owner/repo). */
  source: string
  /** `directory`: read in place; `git`: cloned into the data folder and pulled by `update`. */
  kind: 'directory' | 'git'
  /** The marketplace root: the folder holding `.claude-plugin/`, where relative plugin sources resolve. */
  root: string
  /** A git marketplace's checkout, when `path` puts its root below the checkout's top. */
  checkout?: string
  /** Its marketplace.json, when not `<root>/.claude-plugin/marketplace.json` (a `path` was given). */
  manifestFile?: string
  /** A git marketplace's branch, tag or commit id (Claude Code's `ref`); a commit id holds it there. */
  ref?: string
  /** The `path` of marketplace.json inside the repository, as given. */
  path?: string
  /** The only folders checked out (Claude Code's `sparsePaths`). */
  sparsePaths?: string[]
  addedAt: string
  updatedAt?: string
}

/** An installed plugin: its copy in the data folder. */
export interface InstalledPlugin {
  /** `<plugin>@<marketplace>`. */
  id: string
  name: string
  marketplace: string
  root: string
  version?: string
  installedAt: string
}

/** The plugin registry kept in the data folder (`plugins/registry.json`). */
export interface PluginRegistry {
  marketplaces: Record<string, KnownMarketplace>
  plugins: Record<string, InstalledPlugin>
}

/** The folder holding everything plugins keep: the registry, marketplace clones, installed copies. */
export function pluginsDir(dataDir: string): string {
  return join(dataDir, 'plugins')
}

/**
 * A plugin's own data folder (`${CLAUDE_PLUGIN_DATA}`), kept across updates as Claude Code keeps
 * `~/.claude/plugins/data/<id>`: the id with anything but letters, digits, `.`, `_` and `-` as `-`.
 */
export function pluginDataDir(dataDir: string, id: string): string {
  return join(pluginsDir(dataDir), 'data', id.replace(/[^A-Za-z0-9._-]/g, '-'))
}

function registryFile(dataDir: string): string {
  return join(pluginsDir(dataDir), 'registry.json')
}

/**
 * Reads the registry; a missing file is an empty registry. A broken one is an error (never
 * silently replaced: it holds what the user installed).
 */
export async function readPluginRegistry(
  dataDir: string,
): Promise<{ ok: true; registry: PluginRegistry } | { ok: false; error: string }> {
  const file = registryFile(dataDir)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { ok: true, registry: { marketplaces: {}, plugins: {} } }
    return { ok: false, error: `${file} could not be read (${code ?? String(error)})` }
  }
  try {
    const raw = JSON.parse(text) as Partial<PluginRegistry>
    return {
      ok: true,
      registry: { marketplaces: raw.marketplaces ?? {}, plugins: raw.plugins ?? {} },
    }
  } catch (error) {
    return {
      ok: false,
      error: `${file} is not valid JSON (${(error as Error).message}); fix or remove it`,
    }
  }
}

/** Writes the registry (write then rename, so a crash never leaves half a file). */
export async function writePluginRegistry(dataDir: string, registry: PluginRegistry): Promise<void> {
  const file = registryFile(dataDir)
  await mkdir(dirname(file), { recursive: true })
  const temporary = `${file}.${process.pid}.tmp`
  await writeFile(temporary, `${JSON.stringify(registry, null, 2)}\n`)
  await rename(temporary, file)
}
