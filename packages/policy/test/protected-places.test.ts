import { describe, expect, it } from 'vitest'
import { act, bash, context } from './helpers.js'

// Issue 34 class 5: protected places as folders. Each of these names a program something runs
// without asking (trusted hooks, a toolchain proxy, direnv, an editor), so a write asks even in
// acceptEdits and under an Edit allow rule; only bypass allows.
const PLACES = [
  '/proj/.claude/hooks/pre-tool.sh',
  '/proj/.claude/hooks',
  '/proj/.claude/anything/new.md',
  '/proj/.claude/CLAUDE.md',
  '/proj/pkg/.claude/settings.json',
  '/proj/.husky/pre-commit',
  '/proj/.git/commondir',
  '/proj/.git/config.worktree',
  '/proj/.git/modules/lib/hooks/post-checkout',
  '/proj/rust-toolchain.toml',
  '/proj/rust-toolchain',
  '/proj/crates/x/rust-toolchain.toml',
  '/proj/.cargo/config.toml',
  '/proj/.cargo/config',
  '/proj/.tool-versions',
  '/proj/.mise.toml',
  '/proj/mise.toml',
  '/proj/.mise/config.toml',
  '/proj/.envrc',
  '/proj/.nvmrc',
  '/proj/.node-version',
  '/proj/.python-version',
  // The sandbox kept it read-only before the policy did (one list in @z-engine/protocol now).
  '/proj/.sdkmanrc',
  '/proj/.vscode/tasks.json',
  '/proj/.vscode/launch.json',
  '/proj/.idea/runConfigurations/Evil.xml',
  '/proj/.idea/workspace.xml',
  '/proj/.run/Evil.run.xml',
  // Git hook managers' configuration: what the hook they installed runs on the next commit.
  '/proj/.pre-commit-config.yaml',
  '/proj/lefthook.yml',
  '/proj/.lefthook.yml',
  '/proj/.simple-git-hooks.json',
  '/proj/pkg/.pre-commit-config.yaml',
  // Files that make a tool the user runs later run code (issue 34, session f): package managers'
  // and interactive tools' configuration, editors' folders whole, yarn's releases and plugins.
  '/proj/.npmrc',
  '/proj/packages/app/.npmrc',
  '/proj/.yarnrc',
  '/proj/.yarnrc.yml',
  '/proj/.yarn/releases/yarn-4.1.0.cjs',
  '/proj/.yarn/plugins/evil.cjs',
  '/proj/.pnpmfile.cjs',
  '/proj/pnpm-workspace.yaml',
  '/proj/bunfig.toml',
  '/proj/.irbrc',
  '/proj/.Rprofile',
  '/proj/.gdbinit',
  '/proj/.nvim.lua',
  '/proj/.exrc',
  '/proj/.dir-locals.el',
  '/proj/.devcontainer.json',
  '/proj/.devcontainer/devcontainer.json',
  '/proj/.vscode/settings.json',
  '/proj/.vscode/extensions.json',
  '/proj/.idea/misc.xml',
  '/proj/.zed/settings.json',
  '/proj/.helix/languages.toml',
  '/proj/.config/mise/config.toml',
  '/proj/.config/mise.toml',
  // A trusted project's own language server (issue 39) starts from these unasked.
  '/proj/node_modules/.bin/typescript-language-server',
  '/proj/.venv/bin/pyright-langserver',
  '/proj/venv/bin/basedpyright-langserver',
]

describe('protected places (issue 34)', () => {
  it.each(PLACES)('acceptEdits with an Edit allow rule: writing %s asks', (path) => {
    const ctx = context('acceptEdits', { allow: ['Edit', 'Edit(/**)'] })
    const verdict = act({ type: 'write', paths: [path] }, ctx, 'Write')
    expect(verdict.decision).toBe('ask')
    expect(verdict.reason).toContain('protected')
    expect(verdict.suggestion).toBeUndefined()
    expect(act({ type: 'write', paths: [path] }, context('bypass'), 'Write').decision).toBe('allow')
  })

  it.each([
    'echo x > .claude/hooks/pre-tool.sh',
    'cp evil.sh .claude/hooks/stop.sh',
    'touch rust-toolchain.toml',
    'mkdir -p .cargo && touch .cargo/config.toml',
    'echo nodejs 20 > .tool-versions',
    'echo "use nix" > .envrc',
    'cp t.json .vscode/tasks.json',
    'echo "repos: []" > .pre-commit-config.yaml',
    'mv x.xml .idea/runConfigurations/x.xml',
    'cp evil node_modules/.bin/typescript-language-server',
    'echo script-shell=./evil.sh > .npmrc',
    'echo "yarnPath: ./x.cjs" >> .yarnrc.yml',
    'cp hook.cjs .pnpmfile.cjs',
    'cp -r vendor/. .',
  ])('acceptEdits: %j asks', (line) => {
    expect(bash(line, context('acceptEdits')).decision).toBe('ask')
  })

  it.each([
    '/proj/src/tasks.json',
    '/proj/.npmrc.example',
    '/proj/package.json',
    '/proj/pyproject.toml',
    '/proj/setup.cfg',
    '/proj/conftest.py',
    '/proj/.yarn/cache/pkg.zip',
    '/proj/.config/eslint.json',
    '/proj/docs/rust-toolchain.md',
    '/proj/claude/notes.md',
    '/proj/.idea-notes.txt',
    '/proj/src/config.toml',
    '/proj/node_modules/pkg/index.js',
    '/proj/src/bin/tool.ts',
  ])('acceptEdits: ordinary files such as %s stay allowed', (path) => {
    expect(act({ type: 'write', paths: [path] }, context('acceptEdits'), 'Write').decision).toBe('allow')
  })

  it('reading them needs no approval', () => {
    expect(act({ type: 'read', paths: ['/proj/.claude/hooks/pre-tool.sh'] }).decision).toBe('allow')
    expect(bash('cat rust-toolchain.toml .tool-versions').decision).toBe('allow')
  })
})
