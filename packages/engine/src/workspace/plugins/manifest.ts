/**
 * Claude Code's plugin formats, parsed without I/O: a marketplace's `.claude-plugin/marketplace.json`
 * and a plugin's `.claude-plugin/plugin.json` (Codex's `.codex-plugin/plugin.json` where it names
 * skills). Every problem is a message naming the field; nothing throws.
 */

type Json = Record<string, unknown>

/** Plugin and marketplace names as Claude Code accepts them: kebab-case, no spaces. */
export const PLUGIN_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/

/** Where a marketplace entry's plugin comes from. */
export type PluginSource =
  /** A folder inside the marketplace (`./plugins/formatter`). */
  | { kind: 'relative'; path: string }
  /**
   * A git repository cloned with the system git: `github` (a GitHub URL), `url`/`git`, or
   * `git-subdir` (only `subdir` is checked out and installed). `ref` is a branch or tag; `sha` pins
   * the exact commit (40 lowercase hex digits).
   */
  | { kind: 'git'; type: GitSourceType; url: string; ref?: string; sha?: string; subdir?: string }

/** How a marketplace entry named its git source, as Claude Code spells `source`. */
export type GitSourceType = 'github' | 'url' | 'git' | 'git-subdir'

/** A full commit id as Claude Code accepts it for `sha`. */
export const COMMIT_SHA = /^[a-f0-9]{40}$/

/** Component locations a manifest or marketplace entry names (paths relative to the plugin root). */
export interface ComponentPaths {
  commands: string[]
  agents: string[]
  skills: string[]
  /** Paths to hooks files, or inline `{"hooks": {…}}` objects. */
  hooks: Array<string | Json>
  /** Paths to `.mcp.json`-shaped files, or inline `{name: server}` objects. */
  mcpServers: Array<string | Json>
}

/** One plugin a marketplace lists. */
export interface MarketplacePlugin extends ComponentPaths {
  name: string
  source: PluginSource
  description?: string
  version?: string
  /** Claude Code's `strict` (default true): false lets the entry stand in for a missing plugin.json. */
  strict: boolean
}

/** A parsed `marketplace.json`. */
export interface MarketplaceManifest {
  name: string
  owner?: string
  description?: string
  plugins: MarketplacePlugin[]
  /** Entries that were skipped, with why. */
  problems: string[]
}

/** A parsed `plugin.json`. */
export interface PluginManifest extends ComponentPaths {
  name: string
  version?: string
  description?: string
  author?: string
}

/** A parse result: the value, or why the whole file is unusable. */
export type ManifestResult<T> = { ok: true; value: T } | { ok: false; error: string }

/** Parses `.claude-plugin/marketplace.json`. */
export function parseMarketplaceManifest(text: string): ManifestResult<MarketplaceManifest> {
  const raw = parseObject(text)
  if (!raw.ok) return raw
  const data = raw.value
  if (typeof data.name !== 'string' || !PLUGIN_NAME.test(data.name))
    return { ok: false, error: '"name" must be a kebab-case marketplace name' }
  if (!Array.isArray(data.plugins)) return { ok: false, error: '"plugins" must be a list' }
  const metadata = isRecord(data.metadata) ? data.metadata : {}
  const pluginRoot = typeof metadata.pluginRoot === 'string' ? metadata.pluginRoot : undefined
  const problems: string[] = []
  const plugins: MarketplacePlugin[] = []
  for (const [index, entry] of data.plugins.entries()) {
    const where = `plugins[${index}]`
    if (!isRecord(entry)) {
      problems.push(`${where} must be an object; it is skipped`)
      continue
    }
    if (typeof entry.name !== 'string' || !PLUGIN_NAME.test(entry.name)) {
      problems.push(`${where}.name must be a kebab-case plugin name; it is skipped`)
      continue
    }
    const source = pluginSource(entry.source, pluginRoot)
    if (typeof source === 'string') {
      problems.push(`${where} (${entry.name}): ${source}; it is skipped`)
      continue
    }
    const paths = componentPaths(entry, `${where} (${entry.name})`, problems)
    const plugin: MarketplacePlugin = { name: entry.name, source, strict: entry.strict !== false, ...paths }
    if (typeof entry.description === 'string') plugin.description = entry.description
    if (typeof entry.version === 'string') plugin.version = entry.version
    plugins.push(plugin)
  }
  const manifest: MarketplaceManifest = { name: data.name, plugins, problems }
  const owner = personName(data.owner)
  if (owner !== undefined) manifest.owner = owner
  const description = typeof data.description === 'string' ? data.description : metadata.description
  if (typeof description === 'string') manifest.description = description
  return { ok: true, value: manifest }
}

/** Parses `.claude-plugin/plugin.json`; `problems` collects fields that were ignored. */
export function parsePluginManifest(text: string, problems: string[]): ManifestResult<PluginManifest> {
  const raw = parseObject(text)
  if (!raw.ok) return raw
  const data = raw.value
  if (typeof data.name !== 'string' || !PLUGIN_NAME.test(data.name))
    return { ok: false, error: '"name" must be a kebab-case plugin name' }
  const manifest: PluginManifest = { name: data.name, ...componentPaths(data, 'plugin.json', problems) }
  if (typeof data.version === 'string') manifest.version = data.version
  if (typeof data.description === 'string') manifest.description = data.description
  const author = personName(data.author)
  if (author !== undefined) manifest.author = author
  return { ok: true, value: manifest }
}

/** Parses Codex's `.codex-plugin/plugin.json`: its name, version, description and `skills` path. */
export function parseCodexPluginManifest(text: string, problems: string[]): ManifestResult<PluginManifest> {
  const raw = parseObject(text)
  if (!raw.ok) return raw
  const data = raw.value
  if (typeof data.name !== 'string' || !PLUGIN_NAME.test(data.name))
    return { ok: false, error: '"name" must be a kebab-case plugin name' }
  const skills = componentPaths({ skills: data.skills }, '.codex-plugin/plugin.json', problems).skills
  const manifest: PluginManifest = {
    name: data.name,
    commands: [],
    agents: [],
    skills,
    hooks: [],
    mcpServers: [],
  }
  if (typeof data.version === 'string') manifest.version = data.version
  if (typeof data.description === 'string') manifest.description = data.description
  return { ok: true, value: manifest }
}

/**
 * A plugin source: a relative path (`./x`, or a bare name under `metadata.pluginRoot`), a GitHub
 * `{source: "github", repo}`, a git `{source: "url" | "git", url}`, or a monorepo folder
 * `{source: "git-subdir", url, path}` (each with an optional `ref` and `sha`); a message when unusable.
 */
function pluginSource(value: unknown, pluginRoot: string | undefined): PluginSource | string {
  if (typeof value === 'string') {
    if (value === '') return '"source" is empty'
    if (isGitUrl(value)) return { kind: 'git', type: 'url', url: value }
    const path =
      pluginRoot !== undefined && !value.startsWith('./') && !value.startsWith('../')
        ? `${pluginRoot.replace(/\/$/, '')}/${value}`
        : value
    if (path.startsWith('/') || path.split('/').includes('..'))
      return `"source" ${JSON.stringify(value)} must stay inside the marketplace (a ./relative path)`
    return { kind: 'relative', path }
  }
  if (!isRecord(value)) return '"source" must be a relative path or a {"source": …} object'
  const type = value.source
  if (type !== 'github' && type !== 'url' && type !== 'git' && type !== 'git-subdir')
    return `"source" ${JSON.stringify(value)} is not supported (use a ./path, {"source": "github", "repo": "owner/repo"}, {"source": "url", "url": …} or {"source": "git-subdir", "url": …, "path": …})`
  if (value.ref !== undefined && (typeof value.ref !== 'string' || value.ref === ''))
    return `"source.ref" must be a branch or tag name`
  if (value.sha !== undefined && (typeof value.sha !== 'string' || !COMMIT_SHA.test(value.sha)))
    return `"source.sha" ${JSON.stringify(value.sha)} must be a full 40-character lowercase git commit SHA`
  const pin = {
    ...(typeof value.ref === 'string' ? { ref: value.ref } : {}),
    ...(typeof value.sha === 'string' ? { sha: value.sha } : {}),
  }
  switch (type) {
    case 'github':
      if (typeof value.repo !== 'string' || !GITHUB_REPO.test(value.repo))
        return `"source.repo" must be a GitHub repository as owner/repo`
      return { kind: 'git', type, url: githubUrl(value.repo), ...pin }
    case 'url':
    case 'git':
      if (typeof value.url !== 'string' || value.url === '')
        return `"source.url" must be a git repository URL`
      return { kind: 'git', type, url: value.url, ...pin }
    case 'git-subdir': {
      if (typeof value.url !== 'string' || value.url === '')
        return `"source.url" must be a git repository URL or GitHub owner/repo`
      if (typeof value.path !== 'string' || value.path.replace(/^\.\/|\/$/g, '') === '')
        return `"source.path" must name the plugin's folder inside the repository`
      const subdir = value.path.replace(/^\.\//, '').replace(/\/+$/, '')
      if (subdir.startsWith('/') || subdir.split('/').some((part) => part === '..' || part === '.git'))
        return `"source.path" ${JSON.stringify(value.path)} must be a relative folder inside the repository`
      const url = GITHUB_REPO.test(value.url) && !isGitUrl(value.url) ? githubUrl(value.url) : value.url
      return { kind: 'git', type, url, subdir, ...pin }
    }
  }
}

/** GitHub's `owner/repo` shorthand. */
export const GITHUB_REPO = /^[\w.-]+\/[\w.-]+$/

/** The clone URL of a GitHub `owner/repo`. */
export function githubUrl(repo: string): string {
  return `https://github.com/${repo.replace(/\.git$/, '')}.git`
}

/** Whether a source string names a git repository rather than a folder. */
export function isGitUrl(value: string): boolean {
  return (
    /^(https?|ssh|git|file):\/\//.test(value) || /^[\w.-]+@[\w.-]+:/.test(value) || value.endsWith('.git')
  )
}

function componentPaths(data: Json, where: string, problems: string[]): ComponentPaths {
  const paths = (key: 'commands' | 'agents' | 'skills'): string[] => {
    const value = data[key]
    if (value === undefined) return []
    const list = typeof value === 'string' ? [value] : Array.isArray(value) ? value : undefined
    if (list === undefined || !list.every((item) => typeof item === 'string')) {
      problems.push(`${where}: "${key}" must be a path or a list of paths; it is ignored`)
      return []
    }
    return list.filter((item) => relativeInside(item, `${where}: "${key}"`, problems))
  }
  const fileOrInline = (key: 'hooks' | 'mcpServers'): Array<string | Json> => {
    const value = data[key]
    if (value === undefined) return []
    const list = Array.isArray(value) ? value : [value]
    const kept: Array<string | Json> = []
    for (const item of list) {
      if (typeof item === 'string') {
        if (relativeInside(item, `${where}: "${key}"`, problems)) kept.push(item)
      } else if (isRecord(item)) kept.push(item)
      else problems.push(`${where}: "${key}" entries must be a path or an object; one is ignored`)
    }
    return kept
  }
  return {
    commands: paths('commands'),
    agents: paths('agents'),
    skills: paths('skills'),
    hooks: fileOrInline('hooks'),
    mcpServers: fileOrInline('mcpServers'),
  }
}

/** Component paths are `./relative` and never leave the plugin (Claude Code's rule). */
function relativeInside(path: string, where: string, problems: string[]): boolean {
  if (path.startsWith('/') || path.split('/').includes('..')) {
    problems.push(`${where} ${JSON.stringify(path)} must be a ./path inside the plugin; it is ignored`)
    return false
  }
  return true
}

function personName(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (isRecord(value) && typeof value.name === 'string') return value.name
  return undefined
}

function parseObject(text: string): ManifestResult<Json> {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    return { ok: false, error: `is not valid JSON (${(error as Error).message})` }
  }
  return isRecord(raw) ? { ok: true, value: raw } : { ok: false, error: 'must hold a JSON object' }
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
