import { describe, expect, it } from 'vitest'
import { commandPaths, hookSandboxRequest } from './hook-confinement.js'

const variables = {
  HOME: '/home/u',
  CLAUDE_PROJECT_DIR: '/work/p',
  CLAUDE_PLUGIN_ROOT: '/data/plugins/cache/a/b',
}

describe('commandPaths', () => {
  it('reads the paths a hook command names as sh would expand them', () => {
    expect(commandPaths('~/.claude/hooks/check.sh --fast', variables)).toEqual([
      '/home/u/.claude/hooks/check.sh',
    ])
    expect(commandPaths('"$CLAUDE_PLUGIN_ROOT"/hooks/run.sh prompt', variables)).toEqual([
      '/data/plugins/cache/a/b/hooks/run.sh',
    ])
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell variable, not a template
    expect(commandPaths('python3 ${HOME}/bin/lint.py && node /opt/x.js|tee', variables)).toEqual([
      '/home/u/bin/lint.py',
      '/opt/x.js',
    ])
    // An unknown variable is left alone rather than guessed.
    expect(commandPaths('$OTHER/x.sh; echo hi', variables)).toEqual([])
  })
})

describe('hookSandboxRequest', () => {
  it('a plugin hook: write-confined, its data folder writable, its folder readable, its scripts shown', () => {
    const request = hookSandboxRequest(
      {
        command: '"$CLAUDE_PLUGIN_ROOT"/hooks/run.sh',
        env: { CLAUDE_PLUGIN_ROOT: '/d/cache/p', CLAUDE_PLUGIN_DATA: '/d/data/p' },
      },
      { projectRoot: '/work/p', home: '/home/u', additionalDirectories: ['/work/shared'] },
    )
    expect(request).toEqual({
      root: '/work/p',
      additionalDirectories: ['/work/shared', '/d/data/p'],
      granted: 'write',
      programs: ['/bin/sh', '/d/cache/p/hooks/run.sh'],
      readable: ['/d/cache/p'],
    })
  })
})
