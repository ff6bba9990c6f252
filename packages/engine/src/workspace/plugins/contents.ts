import { readFile, stat } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import {
  type ComponentPaths,
  type MarketplacePlugin,
  PLUGIN_NAME,
  type PluginManifest,
  parseCodexPluginManifest,
  parsePluginManifest,
} from './manifest.js'

type Json = Record<string, unknown>

/** What one plugin folder holds, with every path absolute and every file read. */
export interface PluginContents {
  name: string
  version?: string
  description?: string
  author?: string
  root: string
  /** Folders or single files of each kind: the default folder when present, plus custom paths. */
  commands: string[]
  agents: string[]
  skills: string[]
  /** Claude Code hooks objects (`{"PreToolUse": [groups]}`), each with the file it came from. */
  hooks: Array<{ file: string; hooks: Json }>
  /** MCP servers by the plugin's own names, each with the file it came from. */
  mcpServers: Array<{ file: string; name: string; server: unknown }>
  /** Fields and files that were ignored, with why. */
  problems: string[]
}

/**
 * Reads a plugin folder: `.claude-plugin/plugin.json` (or Codex's `.codex-plugin/plugin.json`, or
 * only the marketplace entry when neither exists), the default folders (`commands/`, `agents/`,
 * `skills/`, `hooks/hooks.json`, `.mcp.json`) and the custom paths, which add to the defaults as
 * in Claude Code. A broken manifest is an error; a broken component file is a problem, not fatal.
 */
export async function readPluginContents(
  root: string,
  entry?: MarketplacePlugin,
): Promise<{ ok: true; contents: PluginContents } | { ok: false; error: string }> {
  const problems: string[] = []
  let manifest: PluginManifest | undefined
  for (const [file, parse] of [
    ['.claude-plugin/plugin.json', parsePluginManifest],
    ['.codex-plugin/plugin.json', parseCodexPluginManifest],
  ] as const) {
    const text = await readFile(join(root, file), 'utf8').catch(() => undefined)
    if (text === undefined) continue
    const parsed = parse(text, problems)
    if (!parsed.ok) return { ok: false, error: `${join(root, file)} ${parsed.error}` }
    manifest = parsed.value
    break
  }
  const name = manifest?.name ?? entry?.name ?? basename(root)
  if (!PLUGIN_NAME.test(name))
    return { ok: false, error: `${root} has no plugin.json and its folder name is not a plugin name` }
  const empty: ComponentPaths = { commands: [], agents: [], skills: [], hooks: [], mcpServers: [] }
  const declared = [manifest ?? empty, entry ?? empty]
  const contents: PluginContents = {
    name,
    root,
    commands: await folders(
      root,
      'commands',
      declared.flatMap((paths) => paths.commands),
    ),
    agents: await folders(
      root,
      'agents',
      declared.flatMap((paths) => paths.agents),
    ),
    skills: await folders(
      root,
      'skills',
      declared.flatMap((paths) => paths.skills),
    ),
    hooks: [],
    mcpServers: [],
    problems,
  }
  const version = manifest?.version ?? entry?.version
  if (version !== undefined) contents.version = version
  const description = manifest?.description ?? entry?.description
  if (description !== undefined) contents.description = description
  if (manifest?.author !== undefined) contents.author = manifest.author

  const hookSources: Array<string | Json> = ['hooks/hooks.json', ...declared.flatMap((paths) => paths.hooks)]
  for (const source of unique(hookSources)) {
    const read = await jsonSource(root, source, problems, source === 'hooks/hooks.json')
    if (read === undefined) continue
    const hooks = isRecord(read.data.hooks) ? read.data.hooks : read.data
    contents.hooks.push({ file: read.file, hooks })
  }
  const mcpSources: Array<string | Json> = ['.mcp.json', ...declared.flatMap((paths) => paths.mcpServers)]
  for (const source of unique(mcpSources)) {
    const read = await jsonSource(root, source, problems, source === '.mcp.json')
    if (read === undefined) continue
    const servers = isRecord(read.data.mcpServers) ? read.data.mcpServers : read.data
    for (const [serverName, server] of Object.entries(servers))
      contents.mcpServers.push({ file: read.file, name: serverName, server })
  }
  return { ok: true, contents }
}

/** The default folder (when it exists) and the declared paths, absolute and deduplicated. */
async function folders(root: string, defaultFolder: string, declared: string[]): Promise<string[]> {
  const paths: string[] = []
  if ((await stat(join(root, defaultFolder)).catch(() => undefined))?.isDirectory())
    paths.push(join(root, defaultFolder))
  for (const path of declared) paths.push(resolve(root, path))
  return unique(paths)
}

/** A JSON object from a path inside the plugin, or an inline object from the manifest. */
async function jsonSource(
  root: string,
  source: string | Json,
  problems: string[],
  optional: boolean,
): Promise<{ file: string; data: Json } | undefined> {
  if (typeof source !== 'string') return { file: join(root, '.claude-plugin/plugin.json'), data: source }
  const file = resolve(root, source)
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if (!optional)
      problems.push(`${file} could not be read (${(error as NodeJS.ErrnoException).code}); it is ignored`)
    return undefined
  }
  try {
    const data: unknown = JSON.parse(text)
    if (isRecord(data)) return { file, data }
    problems.push(`${file} must hold a JSON object; it is ignored`)
  } catch (error) {
    problems.push(`${file} is not valid JSON (${(error as Error).message}); it is ignored`)
  }
  return undefined
}

function unique<T>(items: readonly T[]): T[] {
  const seen = new Set<string>()
  return items.filter((item) => {
    const key = typeof item === 'string' ? item : JSON.stringify(item)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
