import type { SettingsLayer } from '@z-engine/protocol'
import type { LoadedLayer, SettingsLayerName, SettingsNotice } from './layers.js'
import { convertMcpServers } from './mcp-json-layer.js'

type Json = Record<string, unknown>

/**
 * Claude Code's MCP scopes kept in `~/.claude.json`: `user` is its top-level `mcpServers`, `local`
 * (Claude Code's default scope) is `projects["<project path>"].mcpServers`.
 */
export type ClaudeJsonScope = 'user' | 'local'

/** `~/.claude.json` as parsed: the whole object (every key kept), or why it cannot be read. */
export type ClaudeJsonParse = { ok: true; config: Json } | { ok: false; message: string }

/**
 * The project entry Claude Code 2.1.332 writes when `claude mcp add -s local` meets a project it has
 * no entry for; written the same so the file reads as Claude Code's own.
 */
const NEW_PROJECT_ENTRY: Readonly<Json> = {
  allowedTools: [],
  mcpContextUris: [],
  mcpServers: {},
  enabledMcpjsonServers: [],
  disabledMcpjsonServers: [],
  hasTrustDialogAccepted: false,
  hasClaudeMdExternalIncludesApproved: false,
  hasClaudeMdExternalIncludesWarningShown: false,
}

/**
 * Parses the text of `~/.claude.json`. An empty file is an empty config (as Claude Code starts
 * one); anything else that is not a JSON object is an error naming the file, so nothing is
 * written over it.
 */
export function parseClaudeJson(file: string, text: string): ClaudeJsonParse {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text
  if (body.trim() === '') return { ok: true, config: {} }
  let raw: unknown
  try {
    raw = JSON.parse(body)
  } catch (error) {
    return { ok: false, message: `${file} is not valid JSON (${(error as Error).message})` }
  }
  if (!isRecord(raw)) return { ok: false, message: `${file} must hold a JSON object` }
  return { ok: true, config: raw }
}

/** The key Claude Code files a project under in `projects`: its absolute path, NFC-normalized. */
export function claudeJsonProjectKey(projectRoot: string): string {
  return projectRoot.normalize('NFC')
}

/** The `mcpServers` of one scope (a copy; empty when the scope has none or holds no object). */
export function claudeJsonServers(config: Json, scope: ClaudeJsonScope, projectRoot: string): Json {
  const holder = scope === 'user' ? config : projectEntry(config, projectRoot)
  const servers = holder?.mcpServers
  return isRecord(servers) ? { ...servers } : {}
}

/**
 * A copy of the config with one scope's `mcpServers` replaced and every other key kept; a project
 * without an entry gets the one Claude Code creates.
 */
export function withClaudeJsonServers(
  config: Json,
  scope: ClaudeJsonScope,
  projectRoot: string,
  servers: Json,
): Json {
  if (scope === 'user') return { ...config, mcpServers: servers }
  const key = claudeJsonProjectKey(projectRoot)
  const projects = isRecord(config.projects) ? config.projects : {}
  const entry = isRecord(projects[key]) ? projects[key] : structuredClone(NEW_PROJECT_ENTRY)
  return { ...config, projects: { ...projects, [key]: { ...entry, mcpServers: servers } } }
}

/** The two layers `~/.claude.json` gives: its user-scope servers, and (in a project) its local-scope ones. */
export interface ClaudeJsonLayers {
  user: LoadedLayer
  local?: LoadedLayer
}

/**
 * `~/.claude.json`'s MCP servers as settings layers (`claudeJsonUser`, `claudeJsonLocal`), each
 * entry converted and checked as a `.mcp.json` entry is. Nothing else of the file is read. A file
 * that does not parse gives one error notice naming it, and neither layer sets anything.
 */
export function claudeJsonLayers(
  file: string,
  text: string | undefined,
  projectRoot: string | undefined,
): ClaudeJsonLayers {
  const empty = (name: SettingsLayerName): LoadedLayer => ({
    name,
    file,
    present: text !== undefined,
    data: {},
    notices: [],
  })
  if (text === undefined)
    return { user: empty('claudeJsonUser'), ...(projectRoot ? { local: empty('claudeJsonLocal') } : {}) }
  const parsed = parseClaudeJson(file, text)
  if (!parsed.ok) {
    const notice: SettingsNotice = {
      severity: 'error',
      layer: 'claudeJsonUser',
      file,
      code: 'json_invalid',
      message: `${parsed.message}; its MCP servers (user and local scope) are skipped until it is fixed.`,
    }
    return {
      user: { ...empty('claudeJsonUser'), notices: [notice] },
      ...(projectRoot ? { local: empty('claudeJsonLocal') } : {}),
    }
  }
  const layer = (name: SettingsLayerName, holder: Json | undefined): LoadedLayer => {
    const entries = holder?.mcpServers
    if (entries === undefined) return empty(name)
    if (!isRecord(entries))
      return {
        ...empty(name),
        notices: [
          {
            severity: 'error',
            layer: name,
            file,
            code: 'mcp_servers_invalid',
            message: `${file}: "mcpServers"${name === 'claudeJsonLocal' ? ` of project ${projectRoot}` : ''} must be an object; those servers are skipped.`,
          },
        ],
      }
    const { servers, notices } = convertMcpServers(file, entries, name)
    const data: SettingsLayer = Object.keys(servers).length > 0 ? ({ mcp: { servers } } as SettingsLayer) : {}
    return { name, file, present: true, data, notices }
  }
  return {
    user: layer('claudeJsonUser', parsed.config),
    ...(projectRoot ? { local: layer('claudeJsonLocal', projectEntry(parsed.config, projectRoot)) } : {}),
  }
}

function projectEntry(config: Json, projectRoot: string): Json | undefined {
  const projects = config.projects
  if (!isRecord(projects)) return undefined
  const entry = projects[claudeJsonProjectKey(projectRoot)]
  return isRecord(entry) ? entry : undefined
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
