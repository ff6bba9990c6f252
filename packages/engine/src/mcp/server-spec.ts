import { resolve } from 'node:path'
import type { McpServerSettings } from '@z-engine/protocol'
import { expandEnv } from './expand-env.js'

/** Default time a server has to start and answer `initialize` and `tools/list` (spec: 30 s). */
export const DEFAULT_MCP_START_TIMEOUT_MS = 30_000

/** One server ready to connect: settings resolved, `${VAR}` expanded, the transport decided. */
export type McpServerSpec =
  | {
      name: string
      transport: 'stdio'
      command: string
      args: string[]
      /** Only the variables the server's entry sets; the launcher adds the safe base environment. */
      env: Record<string, string>
      cwd: string
      timeoutMs: number
    }
  | {
      name: string
      transport: 'http' | 'sse'
      url: string
      headers: Record<string, string>
      timeoutMs: number
    }

/** A server entry that cannot start, with the field at fault. */
export interface McpSpecProblem {
  /** `error`: the server is left out; `warning`: it starts anyway. */
  severity: 'error' | 'warning'
  /** A stable code for tools: `name_invalid`, `transport_missing`, `command_missing`, `url_missing`, `url_invalid`, `env_missing`. */
  code: McpSpecProblemCode
  server: string
  field: string
  message: string
  /** For `env_missing`: the variables referenced without a default that are not set. */
  variables?: string[]
}

/** The codes of {@link McpSpecProblem}. */
export type McpSpecProblemCode =
  | 'name_invalid'
  | 'transport_missing'
  | 'transport_unknown'
  | 'command_missing'
  | 'url_missing'
  | 'url_invalid'
  | 'env_missing'

/** Server names become part of tool names (`mcp__<server>__<tool>`), so they must stay plain. */
const SERVER_NAME = /^[A-Za-z0-9_-]+$/

/**
 * Resolves the effective `[mcp.servers]` into specs: the transport from `type` or inferred (`command`
 * means stdio, `url` http), `${VAR}`/`${VAR:-default}` expanded in command, args, env, url and
 * headers from the engine's environment, stdio servers run in the project root unless `cwd` says
 * otherwise. Disabled servers are left out; broken entries become problems (and are left out).
 */
export function resolveServerSpecs(
  servers: Readonly<Record<string, McpServerSettings>>,
  env: Readonly<Record<string, string | undefined>>,
  projectRoot: string,
): { specs: McpServerSpec[]; problems: McpSpecProblem[] } {
  const specs: McpServerSpec[] = []
  const problems: McpSpecProblem[] = []
  for (const [name, server] of Object.entries(servers)) {
    if (server.enabled === false) continue
    const problem = (code: McpSpecProblemCode, field: string, message: string) =>
      problems.push({ severity: 'error', code, server: name, field, message })
    if (!SERVER_NAME.test(name) || name.includes('__')) {
      problem(
        'name_invalid',
        'name',
        'server names may hold only letters, digits, - and single _ (they become tool names)',
      )
      continue
    }
    const missing: string[] = []
    const expand = (text: string) => {
      const expanded = expandEnv(text, env)
      missing.push(...expanded.missing.filter((variable) => !missing.includes(variable)))
      return expanded.value
    }
    const expandAll = (record: Readonly<Record<string, string>> | undefined) =>
      Object.fromEntries(Object.entries(record ?? {}).map(([key, value]) => [key, expand(value)]))
    const transport =
      server.type ?? (server.command !== undefined ? 'stdio' : server.url !== undefined ? 'http' : undefined)
    const timeoutMs = server.timeout_ms ?? DEFAULT_MCP_START_TIMEOUT_MS
    switch (transport) {
      case undefined:
        problem(
          'transport_missing',
          'command',
          'set `command` (a stdio server) or `url` (an HTTP or SSE server)',
        )
        continue
      case 'stdio': {
        if (server.command === undefined) {
          problem('command_missing', 'command', 'a stdio server needs `command`')
          continue
        }
        const cwd = server.cwd === undefined ? projectRoot : expand(server.cwd)
        specs.push({
          name,
          transport,
          command: expand(server.command),
          args: (server.args ?? []).map(expand),
          env: expandAll(server.env),
          cwd: resolve(projectRoot, cwd),
          timeoutMs,
        })
        break
      }
      case 'http':
      case 'sse': {
        if (server.url === undefined) {
          problem('url_missing', 'url', `a${transport === 'http' ? 'n http' : 'n sse'} server needs \`url\``)
          continue
        }
        const url = expand(server.url)
        if (!/^https?:\/\//.test(url)) {
          problem('url_invalid', 'url', `\`${url}\` is not an http(s) URL`)
          continue
        }
        specs.push({ name, transport, url, headers: expandAll(server.headers), timeoutMs })
        break
      }
      default: {
        const unreachable: never = transport
        problem('transport_unknown', 'type', `unknown transport ${String(unreachable)}`)
        continue
      }
    }
    if (missing.length > 0) {
      problems.push({
        severity: 'warning',
        code: 'env_missing',
        server: name,
        field: 'env',
        variables: [...missing],
        message: `${missing.map((variable) => `\${${variable}}`).join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set; expanded to '' (set ${missing.length === 1 ? 'it' : 'them'} or give a default as \${VAR:-default})`,
      })
    }
  }
  return { specs, problems }
}
