import { Box, type Key, Text } from 'ink'
import type { ReactNode } from 'react'

/** What trusting the workspace would turn on, counted from its project settings files. */
export interface TrustSummary {
  projectRoot: string
  trusted: boolean
  hooks: number
  allowRules: number
  mcpServers: number
  /** The trust-gated categories the project sets (hooks, mcp_servers, permissions.allow, env, …). */
  categories: string[]
  /** `trust.json`, where the answer is recorded. */
  file: string
}

/** What a key in the trust prompt does. */
export type TrustKeyResult = { type: 'trust' } | { type: 'dismiss' } | { type: 'none' }

/** `y` trusts (recorded in trust.json, settings reloaded), `n` or `Esc` keeps it untrusted for now. */
export function trustKey(input: string, key: Key): TrustKeyResult {
  if (input === 'y' || input === 'Y' || key.return) return { type: 'trust' }
  if (input === 'n' || input === 'N' || key.escape) return { type: 'dismiss' }
  return { type: 'none' }
}

const plural = (count: number, one: string) => `${count} ${one}${count === 1 ? '' : 's'}`

/** The trust prompt: which folder, what trust enables (counts), and the two answers. */
export function TrustPanel({ summary }: { summary: TrustSummary | undefined }): ReactNode {
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold color="yellow">
        Do you trust this folder?
      </Text>
      {summary === undefined ? (
        <Text dimColor>Reading the project's settings…</Text>
      ) : (
        <>
          <Text wrap="truncate-middle">{summary.projectRoot}</Text>
          <Text>
            Its settings would turn on: {plural(summary.hooks, 'hook')},{' '}
            {plural(summary.allowRules, 'allow rule')}, {plural(summary.mcpServers, 'MCP server')}
            {summary.categories.length > 0 ? ` (${summary.categories.join(', ')})` : ''}.
          </Text>
          <Text dimColor>
            Hooks and MCP servers run commands on this machine. Trust only folders you know.
          </Text>
        </>
      )}
      <Text>
        <Text color="cyan">[y]</Text> Yes, trust this folder <Text color="cyan">[n]</Text> Not now (its deny
        and ask rules still apply)
      </Text>
      <Text dimColor>
        Later: /trust here, or run 'z-engine trust' in the folder (--revoke to undo)
        {summary ? `; recorded in ${summary.file}` : ''}.
      </Text>
    </Box>
  )
}
