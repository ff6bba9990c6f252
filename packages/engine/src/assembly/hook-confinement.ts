import { isAbsolute, join } from 'node:path'
import type { SandboxRequest } from '@z-engine/host'
import type { HookCommand, HookEvent } from '../workspace/hooks/types.js'

/** Where a session's hooks run. */
export interface HookConfinementInput {
  projectRoot: string
  home: string
  additionalDirectories: readonly string[]
}

/**
 * The confinement of one hook process (issue 34), whoever defined it — the project, the user, a
 * plugin or an agent's frontmatter: the view of a write-confined Bash command (the project and
 * additional directories writable, the home empty but for `[shell.sandbox] read_paths` /
 * `write_paths`, secrets and deny-ruled paths masked, the network as `allow_network` says), plus
 * what the hook itself needs: the scripts its command names shown read-only (`~/.claude/hooks/x.sh`
 * lives in a folder the view does not show otherwise), a plugin's folder (`CLAUDE_PLUGIN_ROOT`)
 * read-only and its data folder (`CLAUDE_PLUGIN_DATA`) writable. WorktreeCreate and WorktreeRemove
 * hooks stand in for the engine's own `git worktree add`/`remove`, so the repository's `worktrees/`
 * admin folder stays writable for them (its hooks and configuration stay read-only).
 */
export function hookSandboxRequest(
  hook: HookCommand,
  input: HookConfinementInput,
  event?: HookEvent,
): SandboxRequest {
  const pluginRoot = hook.env?.CLAUDE_PLUGIN_ROOT
  const pluginData = hook.env?.CLAUDE_PLUGIN_DATA
  const variables: Record<string, string> = {
    HOME: input.home,
    CLAUDE_PROJECT_DIR: input.projectRoot,
    Z_ENGINE_PROJECT_DIR: input.projectRoot,
    ...hook.env,
  }
  return {
    root: input.projectRoot,
    additionalDirectories: [...input.additionalDirectories, ...(pluginData ? [pluginData] : [])],
    granted: 'write',
    // `/bin/sh` is what runs (`sh -c command`); the paths after it are shown if they are programs.
    programs: ['/bin/sh', ...commandPaths(hook.command, variables)],
    ...(pluginRoot ? { readable: [pluginRoot] } : {}),
    ...(event === 'WorktreeCreate' || event === 'WorktreeRemove' ? { manageWorktrees: true } : {}),
  }
}

/**
 * The absolute paths a shell command line names, read the way `sh` would expand its words for the
 * common forms (`~/x`, `$HOME/x`, `"${CLAUDE_PLUGIN_ROOT}"/x`): quotes dropped, the given
 * variables expanded. A reading for what to show, not a parse: a path it misses stays out of view.
 */
export function commandPaths(command: string, variables: Readonly<Record<string, string>>): string[] {
  const paths: string[] = []
  for (const raw of command.split(/[\s;|&()<>`]+/)) {
    let word = raw.replaceAll(/["']/g, '')
    if (word === '~' || word.startsWith('~/')) word = join(variables.HOME ?? '~', word.slice(1))
    word = word.replaceAll(/\$\{(\w+)\}|\$(\w+)/g, (whole, braced?: string, bare?: string) => {
      const value = variables[braced ?? bare ?? '']
      return value ?? whole
    })
    if (isAbsolute(word) && !word.includes('$') && !paths.includes(word)) paths.push(word)
  }
  return paths
}
