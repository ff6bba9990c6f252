import { describe, expect, it } from 'vitest'
import { type GitConfigEntry, repositoryGitProgram } from '../src/index.js'
import { bash, context } from './helpers.js'

// Issue 34 class 1 as the policy sees it: the engine hands in the repository's git config (read
// without running anything); git is proven read-only only where the repository's own config names
// no program the engine's fixed overrides cannot switch off.
function withConfig(entries: readonly GitConfigEntry[] | undefined) {
  return context('default', {}, { pathFacts: { realPath: (path) => path, gitConfig: () => entries } })
}

describe('git and the repository config', () => {
  it.each([
    'diff.evil.textconv',
    'diff.evil.command',
    'diff.a.b.textconv',
    'filter.lfs.process',
    'filter.x.clean',
    'filter.x.smudge',
    'merge.x.driver',
    'include.path',
    'includeif.gitdir:/x/.path',
    'core.worktree',
    'submodule.lib.url',
  ])('a repository setting %s: git asks', (key) => {
    const verdict = bash('git diff', withConfig([{ scope: 'local', key }]))
    expect(verdict.decision).toBe('ask')
    expect(verdict.reason).toContain(key)
    expect(bash('git status && ls', withConfig([{ scope: 'worktree', key }])).decision).toBe('ask')
  })

  it("the user's own drivers (global, system) and overridden keys keep git proven", () => {
    const entries: GitConfigEntry[] = [
      { scope: 'global', key: 'filter.lfs.process' },
      { scope: 'system', key: 'diff.x.textconv' },
      { scope: 'local', key: 'core.fsmonitor' },
      { scope: 'local', key: 'diff.external' },
      { scope: 'local', key: 'core.pager' },
      { scope: 'local', key: 'alias.st' },
    ]
    for (const line of ['git status', 'git diff', 'git log -n 5', 'git show HEAD --stat'])
      expect(bash(line, withConfig(entries)).decision).toBe('allow')
  })

  it('a config that cannot be read proves nothing; lines without git do not ask for it', () => {
    expect(bash('git status', withConfig(undefined)).decision).toBe('ask')
    expect(bash('ls -la', withConfig(undefined)).decision).toBe('allow')
  })

  it('names the key it refuses on', () => {
    expect(repositoryGitProgram([{ scope: 'local', key: 'filter.x.clean' }])).toMatch(/filter driver/)
    expect(repositoryGitProgram([{ scope: 'global', key: 'filter.x.clean' }])).toBeUndefined()
  })

  it('git --help is not proven (it starts the viewer man.viewer names)', () => {
    expect(bash('git --help log').decision).toBe('ask')
  })
})
