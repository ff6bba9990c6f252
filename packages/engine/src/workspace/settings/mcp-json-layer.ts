import { parseSettings, type SettingsLayer } from '@z-engine/protocol'
import type { LoadedLayer, SettingsLayerName, SettingsNotice } from './layers.js'
import { absentLayer, readSettingsText, skippedLayer } from './read-settings-text.js'

type Json = Record<string, unknown>

/** Claude Code's `.mcp.json` keys we read; `type` `streamable-http` is an alias Claude accepts for `http`. */
const KNOWN = new Set(['type', 'command', 'args', 'env', 'url', 'headers', 'cwd', 'enabled', 'timeout_ms'])

/**
 * Reads a project's `.mcp.json` (Claude Code's format: `{"mcpServers": {name: {type?, command,
 * args, env, url, headers}}}`) as the `mcpJson` settings layer, so it layers, explains and is
 * trust-gated like any project layer. Each server is validated on its own: an invalid entry is
 * skipped with a notice naming the file, the server and the field, and the rest load.
 */
export async function readMcpJsonLayer(file: string): Promise<LoadedLayer> {
  const text = await readSettingsText(file)
  if (text === undefined) return absentLayer('mcpJson', file)
  if (typeof text === 'object')
    return skipped(file, `could not be read (${text.code}); it is skipped`, 'file_unreadable')
  return parseMcpJsonLayer(file, text)
}

/** Converts the text of a `.mcp.json` into a layer (see `readMcpJsonLayer`); plugins' servers use it too. */
export function parseMcpJsonLayer(
  file: string,
  text: string,
  name: SettingsLayerName = 'mcpJson',
): LoadedLayer {
  const layer = parseAs(file, text)
  return name === 'mcpJson'
    ? layer
    : { ...layer, name, notices: layer.notices.map((notice) => ({ ...notice, layer: name })) }
}

function parseAs(file: string, text: string): LoadedLayer {
  let raw: unknown
  try {
    // Editors on Windows save a byte-order mark; JSON.parse rejects it, Claude Code does not.
    raw = JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text)
  } catch (error) {
    return skipped(
      file,
      `is not valid JSON (${(error as Error).message}); it is skipped until it is fixed`,
      'json_invalid',
    )
  }
  if (!isRecord(raw) || !isRecord(raw.mcpServers))
    return skipped(
      file,
      'must hold a JSON object with an "mcpServers" object; it is skipped',
      'mcp_servers_missing',
    )
  const { servers, notices } = convertMcpServers(file, raw.mcpServers, 'mcpJson')
  const data: SettingsLayer = Object.keys(servers).length > 0 ? ({ mcp: { servers } } as SettingsLayer) : {}
  return { name: 'mcpJson', file, present: true, data, notices }
}

/**
 * Claude Code's `mcpServers` entries (of `.mcp.json` or `~/.claude.json`) as `mcp.servers`: each
 * validated on its own, an invalid or refused entry skipped with a notice naming the file, the
 * server and the field, so the rest load.
 */
export function convertMcpServers(
  file: string,
  entries: Json,
  layer: SettingsLayerName,
): { servers: Json; notices: SettingsNotice[] } {
  const notices: SettingsNotice[] = []
  const servers: Json = {}
  for (const [name, entry] of Object.entries(entries)) {
    const key = `mcp.servers.${name}`
    if (!isRecord(entry)) {
      notices.push(
        notice(
          layer,
          'error',
          file,
          key,
          `server "${name}" must be an object; it is skipped`,
          'server_invalid',
        ),
      )
      continue
    }
    // Claude Code reads `oauth` on http and sse servers only (a stdio server's is dropped unread).
    const remote = entry.type === 'http' || entry.type === 'sse' || entry.type === 'streamable-http'
    const invalidOauth = remote ? oauthProblem(entry.oauth) : undefined
    if (invalidOauth !== undefined) {
      notices.push(
        notice(
          layer,
          'error',
          file,
          `${key}.oauth`,
          `server "${name}": field "oauth" ${invalidOauth}; this server is skipped (as Claude Code skips it)`,
          'server_invalid',
        ),
      )
      continue
    }
    const refused = refusal(name, entry)
    if (refused !== undefined) {
      notices.push(notice(layer, 'warning', file, key, refused, 'server_refused'))
      continue
    }
    const converted: Json = {}
    for (const [field, value] of Object.entries(entry)) {
      if (!KNOWN.has(field)) {
        notices.push(
          notice(
            layer,
            'warning',
            file,
            `${key}.${field}`,
            `server "${name}": field "${field}" is not supported; it is ignored`,
            'field_ignored',
          ),
        )
        continue
      }
      converted[field] = field === 'type' && value === 'streamable-http' ? 'http' : value
    }
    const parsed = parseSettings({ mcp: { servers: { [name]: converted } } })
    if (!parsed.ok) {
      const field = parsed.error.path.slice(key.length + 1) || 'entry'
      notices.push(
        notice(
          layer,
          'error',
          file,
          parsed.error.path,
          `server "${name}": field "${field}" ${parsed.error.message}; this server is skipped`,
          'server_invalid',
        ),
      )
      continue
    }
    servers[name] = converted
  }
  return { servers, notices }
}

/**
 * Why a server entry is skipped, by name, where Claude Code refuses it or Z Engine cannot run it as
 * written: a `url` with no `type` (Claude Code 2.1.332 skips it too), the `ws` transport, and a
 * `headersHelper` (a command printing the headers; without them the server would be reached
 * unauthenticated).
 */
function refusal(name: string, entry: Json): string | undefined {
  if (entry.url !== undefined && entry.type === undefined && entry.command === undefined)
    return `server "${name}" has a "url" but no "type", so it is skipped (as Claude Code skips it); add "type": "http" (or "sse")`
  if (entry.type === 'ws')
    return `server "${name}" uses the "ws" (WebSocket) transport, which Z Engine does not support; it is skipped (use "http" or "sse" if the server offers them)`
  if (entry.oauth !== undefined && entry.type !== undefined && entry.command === undefined)
    return `server "${name}" sets "oauth" (an OAuth sign-in Claude Code performs in a browser), which Z Engine does not perform; it is skipped rather than reached without its credentials (put a token in "headers", with \${VAR} for secrets)`
  if (entry.headersHelper !== undefined)
    return `server "${name}" sets "headersHelper", a command whose output becomes its headers, which Z Engine does not run; it is skipped (put the headers in "headers", with \${VAR} for secrets)`
  return undefined
}

/**
 * What is wrong with an `oauth` block by Claude Code 2.1.332's schema (it drops such a server):
 * an object of `clientId`, `callbackPort` (a positive integer), `authServerMetadataUrl` (https),
 * `scopes` (non-empty) and `xaa`. Undefined when absent or well formed.
 */
function oauthProblem(oauth: unknown): string | undefined {
  if (oauth === undefined) return undefined
  if (!isRecord(oauth)) return 'must be an object such as {"clientId": "…", "callbackPort": 8080}'
  if (oauth.clientId !== undefined && typeof oauth.clientId !== 'string') return '.clientId must be a string'
  const port = oauth.callbackPort
  if (port !== undefined && !(typeof port === 'number' && Number.isInteger(port) && port > 0))
    return '.callbackPort must be a positive integer'
  const metadata = oauth.authServerMetadataUrl
  if (metadata !== undefined && !(typeof metadata === 'string' && /^https:\/\/[^\s]+$/.test(metadata)))
    return '.authServerMetadataUrl must be an https:// URL'
  if (oauth.scopes !== undefined && !(typeof oauth.scopes === 'string' && oauth.scopes !== ''))
    return '.scopes must be a non-empty string'
  return undefined
}

function skipped(file: string, message: string, code: string): LoadedLayer {
  return skippedLayer('mcpJson', file, notice('mcpJson', 'error', file, undefined, message, code))
}

function notice(
  layer: SettingsLayerName,
  severity: SettingsNotice['severity'],
  file: string,
  key: string | undefined,
  message: string,
  code: string,
): SettingsNotice {
  return {
    severity,
    layer,
    file,
    code,
    ...(key !== undefined ? { key } : {}),
    message: `${file}: ${message}`,
  }
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
