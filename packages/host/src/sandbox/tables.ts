/**
 * The sandbox profile's fixed lists (spec 000 "Sandbox"). Paths starting with `~/` are relative to
 * the user's home; an entry whose `env` variable is set uses that variable's value instead.
 */

/** A known tool cache that confined builds may write (the one table of them). */
export interface ToolCache {
  tool: string
  /** Where it lives by default (`~/` = home). */
  path: string
  /** A variable that moves it, when the tool has one. */
  env?: string
}

/** Tool caches confined commands may write: npm, pnpm, yarn, pip, cargo, go, gradle, maven. */
export const TOOL_CACHES: readonly ToolCache[] = [
  { tool: 'npm', path: '~/.npm', env: 'npm_config_cache' },
  { tool: 'pnpm', path: '~/.local/share/pnpm', env: 'PNPM_HOME' },
  { tool: 'pnpm', path: '~/.cache/pnpm' },
  { tool: 'pnpm', path: '~/Library/pnpm' },
  { tool: 'yarn', path: '~/.cache/yarn', env: 'YARN_CACHE_FOLDER' },
  { tool: 'yarn', path: '~/.yarn/berry' },
  { tool: 'yarn', path: '~/Library/Caches/Yarn' },
  { tool: 'pip', path: '~/.cache/pip', env: 'PIP_CACHE_DIR' },
  { tool: 'pip', path: '~/Library/Caches/pip' },
  { tool: 'cargo', path: '~/.cargo/registry' },
  { tool: 'cargo', path: '~/.cargo/git' },
  { tool: 'go', path: '~/.cache/go-build', env: 'GOCACHE' },
  { tool: 'go', path: '~/Library/Caches/go-build' },
  { tool: 'go', path: '~/go/pkg/mod', env: 'GOMODCACHE' },
  { tool: 'gradle', path: '~/.gradle/caches' },
  { tool: 'gradle', path: '~/.gradle/wrapper' },
  { tool: 'maven', path: '~/.m2/repository' },
]

/**
 * The user's secrets, hidden from every confined command (an empty folder or an empty file over
 * them when they exist): keys, cloud and cluster credentials, registry and VCS tokens, keychains.
 */
export const SECRET_PATHS: readonly string[] = [
  '~/.ssh',
  '~/.aws',
  '~/.gnupg',
  '~/.config/gcloud',
  '~/.azure',
  '~/.kube',
  '~/.docker/config.json',
  '~/.netrc',
  '~/.git-credentials',
  '~/.config/gh',
  '~/.local/share/keyrings',
  '~/Library/Keychains',
]

/**
 * Inside the agent's root, these stay read-only even where the root is writable: git hooks, config
 * and info (a planted hook or filter runs outside the sandbox at the next git command) and the
 * harness's own settings (hooks, permissions, MCP servers, agents, commands and skills).
 */
export const PROTECTED_IN_ROOT: readonly string[] = [
  '.git/hooks',
  '.git/config',
  '.git/info',
  '.z-engine',
  '.claude',
  '.mcp.json',
]
