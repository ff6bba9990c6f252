import type { ArgvConfiner } from '@z-engine/host'
import { type LoadedLayer, PROJECT_LAYERS } from '../workspace/settings/layers.js'
import type { LoadedSettings } from '../workspace/settings/load-settings.js'
import { type InProcessMcpServer, McpManager, type McpManagerHooks } from './mcp-manager.js'
import { type McpServerSpec, resolveServerSpecs } from './server-spec.js'

/** What a session's MCP manager is created from. */
export interface SessionMcpInput {
  loaded: LoadedSettings
  trusted: boolean
  projectRoot: string
  /** The engine's environment, for `${VAR}` expansion. */
  env: Readonly<Record<string, string | undefined>>
  /** The policy-filtered environment child processes get; stdio servers start from it. */
  childEnv: Readonly<Record<string, string>>
  inProcess?: readonly InProcessMcpServer[]
  /** Puts stdio servers into the session's sandbox (issue 34). */
  confine?: ArgvConfiner
  hooks: McpManagerHooks
}

/**
 * Creates a session's MCP manager from the effective settings (user, project and `.mcp.json`
 * servers; project ones already withheld when untrusted). Broken entries and withheld servers are
 * reported through `hooks.notice`; nothing is started until `start()`.
 */
export function createSessionMcp(input: SessionMcpInput): McpManager {
  return new McpManager({
    specs: sessionMcpSpecs(input),
    ...(input.inProcess !== undefined ? { inProcess: input.inProcess } : {}),
    baseEnv: input.childEnv,
    ...(input.confine ? { confine: input.confine } : {}),
    hooks: input.hooks,
  })
}

/**
 * The server specs a session runs under these settings, reporting broken entries and (untrusted)
 * withheld project servers; read again by a settings reload or a workspace trust (`reconcile`).
 */
export function sessionMcpSpecs(
  input: Pick<SessionMcpInput, 'loaded' | 'trusted' | 'projectRoot' | 'env' | 'hooks'>,
): McpServerSpec[] {
  const { specs, problems } = resolveServerSpecs(
    input.loaded.settings.mcp.servers,
    input.env,
    input.projectRoot,
  )
  for (const problem of problems) {
    const source = sourceOf(input.loaded, problem.server)
    input.hooks.notice(
      'warning',
      `MCP server ${problem.server}${source ? ` (${source})` : ''}: ${problem.field}: ${problem.message}${problem.severity === 'error' ? '; it is not started' : ''}.`,
    )
  }
  if (!input.trusted) {
    const withheld = withheldServers(input.loaded.readLayers, Object.keys(input.loaded.settings.mcp.servers))
    if (withheld.length > 0)
      input.hooks.notice(
        'warning',
        `This project's MCP server${withheld.length > 1 ? 's' : ''} ${withheld.join(', ')} ${withheld.length > 1 ? 'are' : 'is'} withheld until you trust the workspace.`,
      )
  }
  return specs
}

/** Names of servers project layers define that the effective settings do not hold. */
export function withheldServers(layers: readonly LoadedLayer[], effective: readonly string[]): string[] {
  const names = new Set<string>()
  for (const layer of layers) {
    if (!PROJECT_LAYERS.has(layer.name)) continue
    const servers = (layer.data as { mcp?: { servers?: Record<string, unknown> } }).mcp?.servers ?? {}
    for (const name of Object.keys(servers)) if (!effective.includes(name)) names.add(name)
  }
  return [...names]
}

function sourceOf(loaded: LoadedSettings, server: string): string | undefined {
  const prefix = `mcp.servers.${server}`
  const entry = loaded.explain
    .filter((item) => item.path === prefix || item.path.startsWith(`${prefix}.`))
    .at(-1)
  return entry?.sources.at(-1)?.file
}
