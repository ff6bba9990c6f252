/** `z-engine gateway` / `z-engine-gateway`: flags → config → a running gateway until SIGINT/SIGTERM. */
import { homedir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { createSearchBackend, SEARCH_BACKENDS, type WebSearchBackend } from '@z-engine/engine/web'
import { startGateway } from './gateway.js'
import type { ApiKeyEntry, OidcSettings } from './http/auth.js'
import { readKeyFile } from './key-file.js'

/** The process streams and environment the command uses (the CLI's CommandIo fits). */
export interface GatewayCliIo {
  argv: readonly string[]
  stdout: NodeJS.WritableStream
  stderr: NodeJS.WritableStream
  env: NodeJS.ProcessEnv
  /** Stops the gateway (default: SIGINT or SIGTERM). */
  signal?: AbortSignal
}

const HELP = `Usage: z-engine gateway --upstream URL [options]

A stateful OpenAI Responses API (and stateless Anthropic Messages API) gateway in front of any
OpenAI-compatible inference server.

  --upstream URL          the inference server's OpenAI base URL, e.g. http://127.0.0.1:8000/v1 (required)
  --db URL                sqlite:PATH (default: $XDG_DATA_HOME/z-engine/gateway.db) or postgres://…
  --host HOST             address to bind (default 127.0.0.1)
  --port N                port (default 8080; 0 picks a free one)
  --api-key KEY           a client bearer token (repeatable; also Z_ENGINE_GATEWAY_API_KEYS=a,b)
  --api-keys-file PATH    keys as hashes with tenants and limits: [{"id","sha256","tenant"?,
                          "requests_per_minute"?,"max_request_bytes"?}]
  --oidc-issuer URL       accept OIDC bearer tokens from this issuer (discovery at /.well-known/openid-configuration)
  --oidc-audience AUD     the audience tokens must carry (required with --oidc-issuer)
  --oidc-jwks-url URL     the issuer's JWKS (default: from discovery)
  --oidc-tenant-claim C   the claim that names the tenant (default sub)
  --oidc-rate-limit N     requests per minute per token subject
  --upstream-api API      what the upstream serves: responses (default) or chat (Chat Completions only)
  --upstream-api-key KEY  bearer token for the upstream (also Z_ENGINE_GATEWAY_UPSTREAM_API_KEY)
  --mcp-allow URL         an MCP server URL requests may declare as a type "mcp" tool (repeatable)
  --search-backend NAME   lets requests use the web_search tool: ${SEARCH_BACKENDS.join(', ')}
  --search-url URL        the search service's base URL (required for searxng)
  --search-key-env NAME   the environment variable holding the search service's API key
  --web-fetch             lets requests use web fetch (web_fetch, web_fetch_20250910), with WebFetch's address checks
  --web-fetch-private-host HOST  a private/loopback host web fetch may reach anyway (repeatable)
  -h, --help              this help

Without --api-key the gateway only binds to a loopback address.
`

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])

function defaultDb(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_DATA_HOME
    ? join(env.XDG_DATA_HOME, 'z-engine')
    : join(homedir(), '.local', 'share', 'z-engine')
  return `sqlite:${join(base, 'gateway.db')}`
}

/** The command line's options; throws what `parseArgs` throws on an unknown or malformed one. */
function parseGatewayArgs(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      upstream: { type: 'string' },
      db: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      'api-key': { type: 'string', multiple: true },
      'upstream-api-key': { type: 'string' },
      'api-keys-file': { type: 'string' },
      'oidc-issuer': { type: 'string' },
      'oidc-audience': { type: 'string' },
      'oidc-jwks-url': { type: 'string' },
      'oidc-tenant-claim': { type: 'string' },
      'oidc-rate-limit': { type: 'string' },
      'upstream-api': { type: 'string' },
      'mcp-allow': { type: 'string', multiple: true },
      'search-backend': { type: 'string' },
      'search-url': { type: 'string' },
      'search-key-env': { type: 'string' },
      'web-fetch': { type: 'boolean' },
      'web-fetch-private-host': { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
  }).values
}

/** Runs the gateway; resolves to the exit code once it has shut down (0) or failed to start (1, 2). */
export async function main(io: GatewayCliIo): Promise<number> {
  let values: ReturnType<typeof parseGatewayArgs>
  try {
    values = parseGatewayArgs(io.argv)
  } catch (error) {
    io.stderr.write(`z-engine gateway: ${(error as Error).message}\n${HELP}`)
    return 2
  }
  if (values.help) {
    io.stdout.write(HELP)
    return 0
  }
  const usage = (message: string): number => {
    io.stderr.write(`z-engine gateway: ${message}\n`)
    return 2
  }
  if (!values.upstream)
    return usage('--upstream URL is required (the inference server, e.g. http://127.0.0.1:8000/v1).')
  try {
    new URL(values.upstream)
  } catch {
    return usage(`--upstream '${values.upstream}' is not a URL.`)
  }
  const port = Number(values.port ?? '8080')
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    return usage(`--port '${values.port}' is not a port number.`)
  const host = values.host ?? '127.0.0.1'
  if ((values['api-key'] ?? []).some((key) => key.trim() === ''))
    return usage('--api-key is blank: give a real key (a blank one would be no authentication).')
  const apiKeys = [
    ...(values['api-key'] ?? []),
    ...(io.env.Z_ENGINE_GATEWAY_API_KEYS ?? '').split(',').map((key) => key.trim()),
  ].filter((key) => key !== '')
  let apiKeyEntries: ApiKeyEntry[] = []
  if (values['api-keys-file'] !== undefined) {
    const read = readKeyFile(values['api-keys-file'])
    if ('error' in read) return usage(read.error)
    apiKeyEntries = read
  }
  let oidc: OidcSettings | undefined
  if (values['oidc-issuer'] !== undefined) {
    if (!values['oidc-audience'])
      return usage('--oidc-issuer needs --oidc-audience (the audience tokens must carry).')
    const rate = values['oidc-rate-limit'] === undefined ? undefined : Number(values['oidc-rate-limit'])
    if (rate !== undefined && !(Number.isInteger(rate) && rate > 0))
      return usage(`--oidc-rate-limit '${values['oidc-rate-limit']}' is not a positive integer.`)
    oidc = {
      issuer: values['oidc-issuer'],
      audience: values['oidc-audience'],
      ...(values['oidc-jwks-url'] ? { jwksUrl: values['oidc-jwks-url'] } : {}),
      ...(values['oidc-tenant-claim'] ? { tenantClaim: values['oidc-tenant-claim'] } : {}),
      ...(rate === undefined ? {} : { requestsPerMinute: rate }),
    }
  } else if (values['oidc-audience'] || values['oidc-jwks-url'] || values['oidc-tenant-claim'])
    return usage('the --oidc-* options need --oidc-issuer.')
  if (apiKeys.length === 0 && apiKeyEntries.length === 0 && !oidc && !LOOPBACK.has(host))
    return usage(
      `refusing to serve ${host} without authentication: pass --api-key, --api-keys-file or --oidc-issuer, or bind to 127.0.0.1.`,
    )
  const upstreamApi = values['upstream-api'] ?? 'responses'
  if (upstreamApi !== 'responses' && upstreamApi !== 'chat')
    return usage(`--upstream-api must be 'responses' or 'chat', not '${upstreamApi}'.`)
  const upstreamApiKey = values['upstream-api-key'] ?? io.env.Z_ENGINE_GATEWAY_UPSTREAM_API_KEY
  let webSearch: WebSearchBackend | undefined
  if (values['search-backend'] !== undefined) {
    const keyEnv = values['search-key-env']
    const apiKey = keyEnv !== undefined ? io.env[keyEnv] : undefined
    if (keyEnv !== undefined && !apiKey) return usage(`--search-key-env ${keyEnv}: that variable is not set.`)
    const built = createSearchBackend({
      backend: values['search-backend'],
      ...(apiKey ? { apiKey } : {}),
      ...(values['search-url'] ? { baseUrl: values['search-url'] } : {}),
    })
    if (!built.ok)
      return usage(
        built.message
          .replace('web.search.api_key_env', '--search-key-env')
          .replace('web.search.base_url', '--search-url')
          .replace(/web\.search\.backend/g, '--search-backend'),
      )
    webSearch = built.backend
  }
  if (values['web-fetch-private-host'] && !values['web-fetch'])
    return usage('--web-fetch-private-host needs --web-fetch.')
  const webFetch = values['web-fetch']
    ? { allowedPrivateHosts: values['web-fetch-private-host'] ?? [] }
    : undefined
  let gateway: Awaited<ReturnType<typeof startGateway>>
  try {
    gateway = await startGateway({
      config: {
        upstreamUrl: values.upstream,
        upstreamApi,
        apiKeys,
        apiKeyEntries,
        ...(oidc ? { oidc } : {}),
        mcpServerUrls: values['mcp-allow'] ?? [],
        ...(webSearch ? { webSearch } : {}),
        ...(webFetch ? { webFetch } : {}),
        ...(upstreamApiKey ? { upstreamApiKey } : {}),
      },
      db: values.db ?? defaultDb(io.env),
      host,
      port,
      log: io.stderr as NodeJS.WritableStream & import('node:stream').Writable,
    })
  } catch (error) {
    io.stderr.write(`z-engine gateway: could not start: ${(error as Error).message}\n`)
    return 1
  }
  io.stdout.write(`gateway listening on ${gateway.url} (OpenAI base URL ${gateway.url}/v1)\n`)
  await new Promise<void>((resolve) => {
    if (io.signal) {
      if (io.signal.aborted) resolve()
      io.signal.addEventListener('abort', () => resolve(), { once: true })
      return
    }
    process.once('SIGINT', () => resolve())
    process.once('SIGTERM', () => resolve())
  })
  await gateway.close()
  return 0
}
