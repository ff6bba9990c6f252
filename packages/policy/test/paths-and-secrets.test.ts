import type { PermissionMode } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { act, bash, context, HOME, ROOT } from './helpers.js'

type Row = [line: string, expected: 'allow' | 'ask' | 'deny']

const secrets = context('default', { deny: ['Read(./.env)', 'Read(~/.ssh/**)', 'Edit(.env)'] })

describe('secrets reached through shell commands', () => {
  it.each<Row>([
    ['cat .env', 'deny'],
    ['cat ./.env', 'deny'],
    ['cat src/../.env', 'deny'],
    ['cat /proj/.env', 'deny'],
    ['grep KEY .env', 'deny'],
    ['grep -e KEY .env', 'deny'],
    ['head -c 100 .env', 'deny'],
    ['tail .env', 'deny'],
    ['base64 .env', 'deny'],
    ['cp .env /tmp/x', 'deny'],
    ['cat < .env', 'deny'],
    ['sed -n 1p .env', 'deny'],
    ['awk 1 .env', 'deny'],
    ['xxd .env', 'deny'],
    ['sort .env', 'deny'],
    ['cd src && cat ../.env', 'deny'],
    ['cat ~/.ssh/id_rsa', 'deny'],
    ['cat $HOME/.ssh/id_rsa', 'ask'],
    ['cat .e*', 'ask'],
    ['cat .en?', 'ask'],
    ['grep -r KEY .', 'ask'],
    ['rg KEY', 'ask'],
    ['find . -name x', 'ask'],
    ['cat "$(echo .env)"', 'ask'],
    ['echo x > .env', 'deny'],
    ['cat README.md', 'allow'],
    ['grep -r KEY src/lib/deep', 'allow'],
    ['grep -r KEY src', 'allow'],
    ['cat src/a.ts', 'allow'],
  ])('%j → %s', (line, expected) => {
    expect(bash(line, secrets).decision).toBe(expected)
  })

  it('stops Read of the file and of a symlink-free traversal to it', () => {
    expect(act({ type: 'read', paths: [`${ROOT}/.env`] }, secrets).decision).toBe('deny')
    expect(act({ type: 'read', paths: [`${ROOT}/src/../.env`] }, secrets).decision).toBe('deny')
    expect(act({ type: 'read', paths: [`${HOME}/.ssh/id_ed25519`] }, secrets).decision).toBe('deny')
    expect(act({ type: 'read', paths: [`${ROOT}/src/.env`] }, secrets).decision).toBe('allow')
    expect(act({ type: 'write', paths: [`${ROOT}/src/.env`] }, secrets).decision).toBe('deny')
  })
})

describe('traversal, absolute and ~ targets', () => {
  it.each<Row>([
    ['cat /etc/passwd', 'ask'],
    ['cat ../other/file', 'ask'],
    ['cat ~/notes.txt', 'ask'],
    ['ls /', 'ask'],
    ['ls ..', 'ask'],
    ['cat src/../../etc/passwd', 'ask'],
    ['cat /extra/file', 'allow'],
    ['cat /proj/src/a.ts', 'allow'],
    ['cd / && cat etc/passwd', 'ask'],
    ['cd .. && ls', 'ask'],
    ["cat '~/x'", 'allow'],
    ['cat /proj2/x', 'ask'],
    ['ls /tmp/*.log', 'ask'],
  ])('%j → %s', (line, expected) => {
    expect(bash(line).decision).toBe(expected)
  })

  it.each<[string, 'read' | 'write', 'allow' | 'ask']>([
    ['/etc/passwd', 'read', 'ask'],
    ['/proj/../etc/passwd', 'read', 'ask'],
    ['/proj/a/../../proj2/x', 'read', 'ask'],
    ['/proj//src///a.ts', 'read', 'allow'],
    ['/proj/src/./a.ts', 'read', 'allow'],
    ['/home/u/.bashrc', 'write', 'ask'],
    ['/extra/notes.md', 'write', 'ask'],
    ['/proj\\..\\..\\etc\\passwd', 'read', 'ask'],
    ['relative/path', 'read', 'ask'],
    ['C:\\Windows\\x', 'write', 'ask'],
  ])('%s (%s) → %s', (path, type, expected) => {
    expect(act({ type, paths: [path] }).decision).toBe(expected)
  })

  it('suggests a session-only rule for targets outside the project', () => {
    const decision = act({ type: 'read', paths: ['/etc/hosts'] })
    expect(decision.suggestion).toEqual({ rule: 'Read(//etc/**)', scope: 'session' })
    expect(bash('cat /etc/hosts').suggestion?.scope).toBe('session')
  })

  it('lets an allow rule cover an outside path', () => {
    const ctx = context('default', { allow: ['Read(//etc/**)', 'Edit(~/notes/**)'] })
    expect(act({ type: 'read', paths: ['/etc/hosts'] }, ctx).decision).toBe('allow')
    expect(bash('cat /etc/hosts', ctx).decision).toBe('allow')
    expect(act({ type: 'write', paths: ['/home/u/notes/a.md'] }, ctx).decision).toBe('allow')
  })
})

const MODES: PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypass']
const PROTECTED = [
  '/proj/.git/config',
  '/proj/.git/hooks/pre-commit',
  '/proj/sub/.git/HEAD',
  '/proj/.z-engine/settings.toml',
  '/proj/.z-engine/settings.local.toml',
  '/proj/.claude/settings.json',
  '/proj/.claude/settings.local.json',
  '/proj/.mcp.json',
  '/proj/src/../.git/config',
]

describe('protected paths in every mode', () => {
  for (const mode of MODES) {
    const expected = mode === 'bypass' ? 'allow' : mode === 'plan' ? 'deny' : 'ask'
    it.each(PROTECTED)(`${mode}: write %s → ${expected}`, (path) => {
      const ctx = context(mode, { allow: ['Edit', 'Edit(/**)', 'Bash(echo:*)'] })
      const decision = act({ type: 'write', paths: [path] }, ctx, 'Edit')
      expect(decision.decision).toBe(expected)
      expect(decision.suggestion).toBeUndefined()
    })
    it(`${mode}: shell writes to protected paths`, () => {
      const ctx = context(mode, { allow: ['Bash(echo:*)', 'Bash(cp:*)'] })
      const shellExpected = mode === 'plan' ? 'deny' : mode === 'bypass' ? 'allow' : 'ask'
      expect(bash('echo x > .git/hooks/pre-commit', ctx).decision).toBe(shellExpected)
      expect(bash('cp evil .mcp.json', ctx).decision).toBe(shellExpected)
      expect(bash('echo x >> .z-engine/settings.toml', ctx).decision).toBe(shellExpected)
    })
  }
  it('reading protected paths is fine', () => {
    expect(act({ type: 'read', paths: ['/proj/.git/config'] }).decision).toBe('allow')
    expect(bash('cat .git/config').decision).toBe('allow')
  })
  it('a deny rule beats bypass', () => {
    const ctx = context('bypass', { deny: ['Edit(.mcp.json)'] })
    expect(act({ type: 'write', paths: ['/proj/.mcp.json'] }, ctx).decision).toBe('deny')
  })
})

describe('modes', () => {
  it.each<[PermissionMode, string, 'allow' | 'ask' | 'deny']>([
    ['default', 'mkdir -p build/out', 'ask'],
    ['acceptEdits', 'mkdir -p build/out', 'allow'],
    ['acceptEdits', 'touch a.txt', 'allow'],
    ['acceptEdits', 'cp a.txt b.txt', 'allow'],
    ['acceptEdits', 'mv a.txt b.txt', 'allow'],
    ['acceptEdits', 'cp -r src dist', 'allow'],
    ['acceptEdits', 'mv a.txt /tmp/b.txt', 'ask'],
    ['acceptEdits', 'cp /etc/passwd .', 'ask'],
    ['acceptEdits', 'mkdir ~/x', 'ask'],
    ['acceptEdits', 'mv $X y', 'ask'],
    ['acceptEdits', 'rm a.txt', 'ask'],
    ['acceptEdits', 'npm install', 'ask'],
    ['acceptEdits', 'touch .git/x', 'ask'],
    ['acceptEdits', 'sudo mkdir x', 'ask'],
    ['acceptEdits', 'ls && mkdir x', 'allow'],
    ['plan', 'ls -la', 'allow'],
    ['plan', 'git status', 'allow'],
    ['plan', 'mkdir x', 'deny'],
    ['plan', 'npm test', 'deny'],
    ['plan', 'echo x > y', 'deny'],
    ['plan', "echo 'unterminated", 'deny'],
    ['plan', "sed -i 's/a/b/' x", 'deny'],
    ['bypass', 'rm -rf build', 'allow'],
    ['bypass', 'curl x | sh', 'allow'],
    ['bypass', "echo 'unterminated", 'ask'],
    ['default', 'rm -rf build', 'ask'],
  ])('%s: %j → %s', (mode, line, expected) => {
    expect(bash(line, context(mode)).decision).toBe(expected)
  })

  it.each<[PermissionMode, 'read' | 'write', 'allow' | 'ask' | 'deny']>([
    ['default', 'read', 'allow'],
    ['default', 'write', 'ask'],
    ['acceptEdits', 'write', 'allow'],
    ['plan', 'read', 'allow'],
    ['plan', 'write', 'deny'],
    ['bypass', 'write', 'allow'],
  ])('%s: %s inside the project → %s', (mode, type, expected) => {
    expect(act({ type, paths: ['/proj/src/a.ts'] }, context(mode)).decision).toBe(expected)
  })

  it('acceptEdits still asks for writes outside the project', () => {
    expect(act({ type: 'write', paths: ['/tmp/x'] }, context('acceptEdits')).decision).toBe('ask')
  })

  it('bypass respects deny rules everywhere', () => {
    const ctx = context('bypass', {
      deny: ['Bash(rm:*)', 'WebFetch(domain:evil.com)', 'Agent(review)', 'mcp__db'],
    })
    expect(bash('rm x', ctx).decision).toBe('deny')
    expect(act({ type: 'fetch', url: 'https://evil.com/' }, ctx).decision).toBe('deny')
    expect(act({ type: 'startAgent', agentType: 'review' }, ctx).decision).toBe('deny')
    expect(act({ type: 'mcpCall', server: 'db', tool: 'drop' }, ctx).decision).toBe('deny')
  })

  it('plan refuses state-changing other actions with a reason', () => {
    const decision = act({ type: 'other', toolName: 'JobKill', readOnly: false }, context('plan'), 'JobKill')
    expect(decision.decision).toBe('deny')
    expect(decision.reason).toMatch(/plan mode/)
    expect(act({ type: 'other', toolName: 'TodoWrite', readOnly: true }, context('plan')).decision).toBe(
      'allow',
    )
  })
})

describe('ask rules', () => {
  const ctx = context('bypass', {
    ask: ['Bash(git push:*)', 'Read(secrets/**)'],
    allow: ['Bash(git push:*)'],
  })
  it('win over allow rules and bypass', () => {
    expect(bash('git push origin main', ctx).decision).toBe('ask')
    expect(bash('git status && git push', ctx).decision).toBe('ask')
    expect(act({ type: 'read', paths: ['/proj/secrets/a'] }, ctx).decision).toBe('ask')
    expect(bash('cat secrets/a', ctx).decision).toBe('ask')
  })
})

describe('sandbox auto_allow', () => {
  const sandbox = { active: true, autoAllow: true, writableRoots: ['/tmp'] }
  it.each<[string, 'allow' | 'ask' | 'deny', string?]>([
    ['npm install', 'allow'],
    ['make build > /tmp/log', 'allow'],
    ['make > /etc/x', 'ask'],
    ['cat /etc/passwd', 'ask'],
    ["echo 'unterminated", 'ask'],
    ['rm -rf build', 'deny', 'deny'],
    ['git push', 'ask', 'ask'],
    ['echo x > .git/hooks/pre-commit', 'ask'],
  ])('%j → %s', (line, expected, rules) => {
    const ctx = context(
      'default',
      rules === 'deny' ? { deny: ['Bash(rm:*)'] } : rules === 'ask' ? { ask: ['Bash(git push:*)'] } : {},
      { sandbox },
    )
    expect(bash(line, ctx).decision).toBe(expected)
  })
  it('plan mode still wins, and without auto_allow commands ask', () => {
    expect(bash('npm install', context('plan', {}, { sandbox })).decision).toBe('deny')
    expect(
      bash('npm install', context('default', {}, { sandbox: { active: true, autoAllow: false } })).decision,
    ).toBe('ask')
    expect(
      bash('npm install', context('default', {}, { sandbox: { active: false, autoAllow: true } })).decision,
    ).toBe('ask')
  })
})

describe('confinement the allow relies on', () => {
  const sandbox = { active: true, autoAllow: true, writableRoots: ['/tmp'] }
  it('read-only proofs need the read-only profile; auto_allow and acceptEdits file commands the write one', () => {
    expect(bash('ls && git status', context('default')).confinement).toBe('read-only')
    expect(bash('npm install', context('default', {}, { sandbox })).confinement).toBe('write')
    expect(bash('mkdir build', context('acceptEdits')).confinement).toBe('write')
    expect(bash('cat README.md', context('acceptEdits')).confinement).toBe('read-only')
  })
  it('bypass and asks carry none', () => {
    expect(bash('rm -rf /', context('bypass')).confinement).toBeUndefined()
    expect(bash('npm install', context('default')).confinement).toBeUndefined()
  })
  it('a rule-allowed line runs confined too (issue 34): git as configured unless the proof covered part of it', () => {
    const npmTest = { allow: ['Bash(npm test:*)'] }
    expect(bash('npm test', context('default', npmTest)).confinement).toBe('rule')
    expect(bash('npm test', context('default', npmTest)).rule).toContain('Bash(npm test:*)')
    // `git status` relied on the proof: its repository's fsmonitor must stay neutralised.
    expect(bash('git status && npm test', context('default', npmTest)).confinement).toBe('write')
    expect(bash('npm test && ls', context('default', npmTest)).confinement).toBe('write')
    // A proven read-only command under a rule still runs on the proof (read-only view).
    expect(bash('git status', context('default', { allow: ['Bash(git status:*)'] })).confinement).toBe(
      'read-only',
    )
    expect(bash('mkdir x && npm test', context('acceptEdits', npmTest)).confinement).toBe('write')
  })
  it('[shell.sandbox] excluded_commands lets a rule-allowed line run unconfined, only when every command is excluded', () => {
    const push = { allow: ['Bash(git push:*)', 'Bash(npm test:*)', 'Bash(git status:*)'] }
    const facts = {
      sandbox: { active: true, autoAllow: false, excludedCommands: ['git push:*', 'git status'] },
    }
    const verdict = bash('git push origin main', context('default', push, facts))
    expect(verdict.decision).toBe('allow')
    expect(verdict.confinement).toBeUndefined()
    // An excluded pattern grants nothing: without the allow rule it asks.
    expect(bash('git push origin main', context('default', {}, facts)).decision).toBe('ask')
    // Mixed with a command that is not excluded, the whole line runs confined.
    expect(bash('npm test && git push', context('default', push, facts)).confinement).toBe('rule')
    // Or with one only the proof covers.
    expect(bash('ls && git push', context('default', push, facts)).confinement).toBe('write')
    // A proven command under an excluded rule keeps the rule's way (the user asked for it outside).
    expect(bash('git status', context('default', push, facts)).confinement).toBeUndefined()
    // auto_allow does not pull an excluded line back in.
    const auto = { sandbox: { ...facts.sandbox, autoAllow: true } }
    expect(bash('git push', context('default', push, auto)).confinement).toBeUndefined()
    // A command with write options the mode permits stays confined, excluded or not.
    const find = { allow: ['Bash(find:*)'] }
    const findFacts = { sandbox: { active: true, autoAllow: false, excludedCommands: ['find:*'] } }
    expect(bash('find . -delete', context('acceptEdits', find, findFacts)).confinement).toBe('write')
  })
})

describe('auto_allow_read_only_bash', () => {
  it('off: read-only commands ask too', () => {
    expect(bash('ls', context('default', {}, { autoAllowReadOnlyBash: false })).decision).toBe('ask')
    expect(
      bash('ls', context('default', { allow: ['Bash(ls:*)'] }, { autoAllowReadOnlyBash: false })).decision,
    ).toBe('allow')
  })
})

describe('case-insensitive file systems', () => {
  it('deny rules and protected paths ignore case', () => {
    const ctx = context('default', { deny: ['Read(./.env)'], allow: ['Edit'] })
    expect(bash('cat .ENV', ctx).decision).toBe('deny')
    expect(act({ type: 'read', paths: ['/proj/.Env'] }, ctx).decision).toBe('deny')
    expect(act({ type: 'write', paths: ['/proj/.GIT/config'] }, ctx, 'Edit').decision).toBe('ask')
    expect(act({ type: 'write', paths: ['/proj/.Z-Engine/settings.toml'] }, ctx, 'Edit').decision).toBe('ask')
    expect(act({ type: 'write', paths: ['/proj/.Claude/Settings.json'] }, ctx, 'Edit').decision).toBe('ask')
  })
  it('allow rules keep their case', () => {
    const ctx = context('default', { allow: ['Edit(/src/**)'] })
    expect(act({ type: 'write', paths: ['/proj/SRC/a.ts'] }, ctx).decision).toBe('ask')
  })
})

describe('files hidden behind options and git operands', () => {
  const ctx = context('default', { deny: ['Read(./.env)'] })
  it.each([
    ['od -c .env', 'deny'],
    ['cat -s .env', 'deny'],
    ['cat -n .env', 'deny'],
    ['ls --color .env', 'deny'],
    ['grep --color KEY .env', 'deny'],
    ['grep -f .env notes.txt', 'deny'],
    ['rg -f .env', 'deny'],
    ['diff --from-file=.env a', 'deny'],
    ['date -r .env', 'deny'],
    ['jq --rawfile s .env -n .', 'deny'],
    ['jq -f .env x.json', 'deny'],
    ['hexdump -f .env x', 'deny'],
    ['git show HEAD:.env', 'deny'],
    ['git log -p -- .env', 'deny'],
    ['git blame .env', 'deny'],
    ['git diff HEAD -- .env', 'deny'],
    ['git grep --untracked KEY', 'ask'],
    ['git grep KEY', 'ask'],
    ['git grep KEY -- src', 'allow'],
    ['git log --oneline', 'allow'],
    ['git diff --no-index .env /dev/null', 'deny'],
  ] as const)('%j → %s', (line, expected) => {
    expect(bash(line, ctx).decision).toBe(expected)
  })
})
