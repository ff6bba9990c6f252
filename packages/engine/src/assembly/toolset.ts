import type { Settings } from '@z-engine/protocol'
import { builtinTools, createSearchBackend, PageCache, type Ports, type Tool } from '@z-engine/tools'

/** What decides the main agent's toolset. */
export interface ToolsetOptions {
  settings: Settings
  ports: Ports
  env: Readonly<Record<string, string | undefined>>
  /** One WebFetch page cache per session (15 minutes), kept across toolset rebuilds. */
  pageCache: PageCache
  onNotice: (level: 'warning', message: string) => void
}

/**
 * The main agent's tools in the stable registry order (the prompt cache depends on it). Tools whose
 * service is off are left out, never stubbed: no WebSearch without a configured backend, no Agent
 * without subagents, no MCP resource tools without MCP, no LSP without language servers.
 */
export function buildToolset(options: ToolsetOptions): Tool[] {
  const { settings } = options
  const search = settings.web.search
  let webSearch: Parameters<typeof builtinTools>[0]['webSearch']
  if (search.backend !== undefined) {
    const apiKey = search.api_key_env !== undefined ? options.env[search.api_key_env] : undefined
    const created = createSearchBackend({
      backend: search.backend,
      ...(apiKey !== undefined ? { apiKey } : {}),
      ...(search.base_url !== undefined ? { baseUrl: search.base_url } : {}),
    })
    if (created.ok) webSearch = created.backend
    else options.onNotice('warning', `WebSearch is off: ${created.message}`)
  }
  return builtinTools({
    ports: options.ports,
    webFetch: { allowedPrivateHosts: settings.web.allowed_private_hosts, cache: options.pageCache },
    ...(webSearch !== undefined ? { webSearch } : {}),
  })
}

/** A new WebFetch page cache. */
export function newPageCache(): PageCache {
  return new PageCache()
}
