import { toolDescription } from '@z-engine/prompts'
import { guardPort } from '../port-results.js'
import { errorResult, textResult } from '../results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'
import type { WebSearchBackend, WebSearchHit } from '../web/search-backend.js'

/** WebSearch's input (Claude Code's shape). */
export interface WebSearchInput {
  query: string
  allowed_domains?: string[]
  blocked_domains?: string[]
}

const NAME = 'WebSearch'
const MAX_RESULTS = 10

/**
 * WebSearch over a configured backend. There is no default: with no backend configured the tool is
 * left out of the toolset rather than offered and failing.
 */
export function createWebSearchTool(backend: WebSearchBackend): Tool<WebSearchInput> {
  return {
    name: NAME,
    description: () => toolDescription(NAME),
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 2, description: 'The search query.' },
        allowed_domains: {
          type: 'array',
          items: { type: 'string', minLength: 1 },
          description: 'Only include results from these domains.',
        },
        blocked_domains: {
          type: 'array',
          items: { type: 'string', minLength: 1 },
          description: 'Never include results from these domains.',
        },
      },
      required: ['query'],
      additionalProperties: false,
    },
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    action: (input, ctx) => actionFor(NAME, input, ctx),
    title: (input) => `Search the web: ${String(input.query)}`,
    preview: async () => undefined,
    async call(input, _ctx, signal) {
      const query = input.query.trim()
      if (query.length < 2)
        return errorResult('invalid_input', 'The query is too short; give at least 2 characters.')
      const allowed = normalizeDomains(input.allowed_domains)
      const blocked = normalizeDomains(input.blocked_domains)
      if (allowed.length > 0 && blocked.length > 0) {
        return errorResult(
          'invalid_input',
          'Give either allowed_domains or blocked_domains, not both: allowed_domains already excludes every other domain.',
        )
      }
      return guardPort(NAME, async () => {
        const answer = await backend.search(
          {
            query,
            ...(allowed.length > 0 ? { allowedDomains: allowed } : {}),
            ...(blocked.length > 0 ? { blockedDomains: blocked } : {}),
            maxResults: MAX_RESULTS,
          },
          signal,
        )
        if (!answer.ok) {
          return errorResult('search_failed', `The ${backend.name} search failed: ${answer.message}`)
        }
        // Backends honor domain filters unevenly; filter again so the model's constraint holds.
        const hits = answer.hits
          .filter((hit) => domainAllowed(hit.url, allowed, blocked))
          .slice(0, MAX_RESULTS)
        return textResult(render(query, hits, allowed), {
          details: { backend: backend.name, query, hits },
        })
      })
    },
  }
}

function normalizeDomains(domains: string[] | undefined): string[] {
  if (!Array.isArray(domains)) return []
  return domains
    .map((domain) =>
      domain
        .trim()
        .toLowerCase()
        .replace(/^[a-z]+:\/\//, '')
        .replace(/\/.*$/, '')
        .replace(/^\*\./, '')
        .replace(/\.$/, ''),
    )
    .filter((domain) => domain !== '')
}

/** Whether a hit's host is `domain` or one of its subdomains, for some domain in the list. */
function matches(host: string, domains: string[]): boolean {
  return domains.some((domain) => host === domain || host.endsWith(`.${domain}`))
}

function domainAllowed(url: string, allowed: string[], blocked: string[]): boolean {
  let host: string
  try {
    host = new URL(url).hostname.toLowerCase()
  } catch {
    return false
  }
  if (allowed.length > 0 && !matches(host, allowed)) return false
  return !matches(host, blocked)
}

function render(query: string, hits: WebSearchHit[], allowed: string[]): string {
  if (hits.length === 0) {
    const scope = allowed.length > 0 ? ` on ${allowed.join(', ')}` : ''
    return `No results for "${query}"${scope}. Try other words, a broader query, or fewer domain filters.`
  }
  const lines = hits.map((hit, index) => {
    const meta = hit.published === undefined ? '' : ` (${hit.published})`
    const snippet = hit.snippet?.replace(/\s+/g, ' ').trim()
    return `${index + 1}. [${hit.title.trim() || hit.url}](${hit.url})${meta}${snippet ? `\n   ${snippet}` : ''}`
  })
  return `Web search results for "${query}":\n\n${lines.join('\n\n')}\n\nRead the relevant pages with WebFetch, and cite the ones you use as markdown links.`
}
