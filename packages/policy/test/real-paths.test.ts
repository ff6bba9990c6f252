import type { PermissionMode } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { type Action, decide, type PathFacts, type PolicyContext, pathFactsFromLinks } from '../src/index.js'
import { context, HOME, ROOT } from './helpers.js'

type Decision = 'allow' | 'ask' | 'deny'

// The links a hostile repository ships (issue 12 finding 9), as the engine would report them.
const LINKS: Record<string, string> = {
  [`${ROOT}/lnk`]: HOME,
  [`${ROOT}/rc`]: `${HOME}/.bashrc`,
  [`${ROOT}/g`]: '.git',
  [`${ROOT}/sub/up`]: '../..',
  [`${ROOT}/secret`]: '.env',
  [`${ROOT}/dangling`]: '/etc/cron.d/new',
  [`${ROOT}/hooks-link`]: '.githooks',
  [`${ROOT}/loop`]: 'loop',
  [`${ROOT}/agents`]: '.claude/agents',
}

function withFacts(
  mode: PermissionMode,
  rules: { allow?: string[]; deny?: string[]; ask?: string[] } = {},
  extra: Partial<PathFacts> = {},
): PolicyContext {
  return context(mode, rules, { pathFacts: { ...pathFactsFromLinks(LINKS), ...extra } })
}

function read(path: string, ctx: PolicyContext): Decision {
  return decide({ type: 'read', paths: [path] }, ctx, { toolName: 'Read' }).decision
}
function write(path: string, ctx: PolicyContext, tool = 'Write'): Decision {
  return decide({ type: 'write', paths: [path] }, ctx, { toolName: tool }).decision
}

describe('pathFactsFromLinks (the pure model of symlinks the engine resolves on disk)', () => {
  const facts = pathFactsFromLinks(LINKS)
  it.each([
    [`${ROOT}/lnk/.ssh/id_rsa`, `${HOME}/.ssh/id_rsa`],
    [`${ROOT}/rc`, `${HOME}/.bashrc`],
    [`${ROOT}/g/hooks/pre-commit`, `${ROOT}/.git/hooks/pre-commit`],
    [`${ROOT}/sub/up/etc/passwd`, '/etc/passwd'],
    [`${ROOT}/src/a.ts`, `${ROOT}/src/a.ts`],
    [`${ROOT}/dangling`, '/etc/cron.d/new'],
  ])('%s → %s', (path, real) => {
    expect(facts.realPath(path)).toBe(real)
  })
  it('gives up on a link loop (unknown, so the policy treats it as unresolved)', () => {
    expect(facts.realPath(`${ROOT}/loop/x`)).toBeUndefined()
  })
})

describe('real paths decide (finding 9: links the repository ships)', () => {
  it.each<[string, PermissionMode, Decision]>([
    // Reads through a link out of the project ask, like any read outside.
    [`${ROOT}/lnk/.ssh/id_rsa`, 'default', 'ask'],
    [`${ROOT}/lnk/.ssh/id_rsa`, 'acceptEdits', 'ask'],
    [`${ROOT}/lnk/.ssh/id_rsa`, 'plan', 'ask'],
    [`${ROOT}/sub/up/etc/passwd`, 'default', 'ask'],
    [`${ROOT}/rc`, 'default', 'ask'],
    // A link that stays in the project reads freely.
    [`${ROOT}/g/config`, 'default', 'allow'],
    [`${ROOT}/src/a.ts`, 'default', 'allow'],
    [`${ROOT}/loop/x`, 'default', 'ask'],
  ])('Read %s in %s → %s', (path, mode, expected) => {
    expect(read(path, withFacts(mode))).toBe(expected)
  })

  it.each<[string, PermissionMode, Decision]>([
    // Writes through a link out of the project: ask (default, acceptEdits), refused in plan.
    [`${ROOT}/rc`, 'default', 'ask'],
    [`${ROOT}/rc`, 'acceptEdits', 'ask'],
    [`${ROOT}/rc`, 'plan', 'deny'],
    [`${ROOT}/lnk/.bashrc`, 'acceptEdits', 'ask'],
    [`${ROOT}/dangling`, 'acceptEdits', 'ask'],
    // Into .git through a link: protected, asks even in acceptEdits.
    [`${ROOT}/g/hooks/pre-commit`, 'acceptEdits', 'ask'],
    [`${ROOT}/g/config`, 'acceptEdits', 'ask'],
    [`${ROOT}/g/config`, 'default', 'ask'],
    [`${ROOT}/agents/evil.md`, 'acceptEdits', 'ask'],
    [`${ROOT}/loop/x`, 'acceptEdits', 'ask'],
    // A plain file inside stays as it was.
    [`${ROOT}/src/a.ts`, 'acceptEdits', 'allow'],
    [`${ROOT}/src/a.ts`, 'default', 'ask'],
  ])('Write %s in %s → %s', (path, mode, expected) => {
    expect(write(path, withFacts(mode))).toBe(expected)
  })

  it('protected real paths suggest no rule, and the reason names the real path', () => {
    const decision = decide({ type: 'write', paths: [`${ROOT}/g/hooks/pre-commit`] }, withFacts('default'), {
      toolName: 'Edit',
    })
    expect(decision.decision).toBe('ask')
    expect(decision.suggestion).toBeUndefined()
    expect(decision.reason).toContain(`${ROOT}/.git/hooks/pre-commit`)
  })

  it('an outside real path offers only a session rule for its real folder', () => {
    const decision = decide({ type: 'read', paths: [`${ROOT}/lnk/.ssh/id_rsa`] }, withFacts('default'), {
      toolName: 'Read',
    })
    expect(decision.reason).toContain(`${HOME}/.ssh/id_rsa`)
    expect(decision.suggestion).toEqual({ rule: `Read(/${HOME}/.ssh/**)`, scope: 'session' })
  })

  it('deny rules match the real path: a link to .env is still .env', () => {
    const ctx = withFacts('bypass', { deny: ['Read(./.env)', 'Edit(~/.bashrc)'] })
    expect(read(`${ROOT}/secret`, ctx)).toBe('deny')
    expect(write(`${ROOT}/rc`, ctx)).toBe('deny')
    expect(read(`${ROOT}/src/a.ts`, ctx)).toBe('allow')
  })

  it('a glob in a linked folder is judged by where the link leads (issue 34: `head lnk/*`)', () => {
    const ctx = withFacts('default')
    const bash = (command: string) =>
      decide({ type: 'execute', command, cwd: ROOT }, ctx, { toolName: 'Bash' }).decision
    expect(bash('head lnk/*')).toBe('ask')
    expect(bash('cat lnk/.ss?/id_rsa')).toBe('ask')
    expect(bash('head src/*')).toBe('allow')
    const denied = withFacts('bypass', { deny: ['Read(~/.ssh/**)'] })
    expect(
      decide({ type: 'execute', command: 'cat lnk/.ssh/*', cwd: ROOT }, denied, { toolName: 'Bash' })
        .decision,
    ).not.toBe('allow')
  })

  it('an allow rule must cover the real path too', () => {
    const ctx = withFacts('default', { allow: ['Edit(/rc)', 'Read(/lnk/**)'] })
    expect(write(`${ROOT}/rc`, ctx)).toBe('ask')
    expect(read(`${ROOT}/lnk/.ssh/id_rsa`, ctx)).toBe('ask')
  })

  it('a project reached through a symlinked root is still inside (macOS /tmp → /private/tmp)', () => {
    const ctx = context(
      'acceptEdits',
      {},
      {
        pathFacts: pathFactsFromLinks({ [ROOT]: '/private/proj', '/extra': '/private/extra' }),
      },
    )
    expect(write(`${ROOT}/src/a.ts`, ctx)).toBe('allow')
    expect(read('/extra/notes.md', ctx)).toBe('allow')
    expect(write(`${ROOT}/.z-engine/settings.toml`, ctx)).toBe('ask')
  })

  it('bypass allows changing a protected real path (spec 001: only Bypass allows them) but not a denied one', () => {
    expect(write(`${ROOT}/g/hooks/pre-commit`, withFacts('bypass'))).toBe('allow')
    expect(write(`${ROOT}/g/hooks/pre-commit`, withFacts('bypass', { deny: ['Edit(.git/**)'] }))).toBe('deny')
  })

  it('without facts the decision is on the path as given (callers that cannot resolve links)', () => {
    expect(read(`${ROOT}/lnk/.ssh/id_rsa`, context('default'))).toBe('allow')
  })
})

describe('protected paths (issue 12 trust: definitions, hooks and engine folders)', () => {
  it.each<[string, Partial<PathFacts>?]>([
    [`${ROOT}/.claude/agents/evil.md`],
    [`${ROOT}/.claude/commands/deploy.md`],
    [`${ROOT}/.claude/skills/x/SKILL.md`],
    [`${ROOT}/.CLAUDE/Agents/evil.md`],
    [`${ROOT}/.z-engine/agents/evil.md`],
    [`${ROOT}/.z-engine/settings.toml`],
    [`${ROOT}/pkg/.z-engine/settings.toml`],
    [`${ROOT}/.husky/pre-commit`],
    [`${ROOT}/.husky/_/husky.sh`],
    [`${ROOT}/.githooks/pre-push`, { hooksPath: `${ROOT}/.githooks` }],
    [`${ROOT}/hooks-link/pre-push`, { hooksPath: `${ROOT}/.githooks` }],
    [`${ROOT}/.git/config`],
    [`${ROOT}/.mcp.json`],
    [`${ROOT}/.claude/settings.json`],
    [`${HOME}/.claude/agents/x.md`],
  ])('a change of %s asks in acceptEdits, with an allow rule, and offers no rule', (path, facts) => {
    const ctx = withFacts('acceptEdits', { allow: ['Edit', 'Write'] }, facts ?? {})
    const decision = decide({ type: 'write', paths: [path] }, ctx, { toolName: 'Write' })
    expect(decision.decision).toBe('ask')
    expect(decision.suggestion).toBeUndefined()
  })

  it.each([`${ROOT}/claude/notes.md`, `${ROOT}/docs/agents/x.md`, `${ROOT}/husky/x`, `${ROOT}/.githooks/x`])(
    '%s is an ordinary file',
    (path) => {
      expect(write(path, withFacts('acceptEdits'))).toBe('allow')
    },
  )
})

describe('deny rules hold for every spelling of the path', () => {
  const ctx = (mode: PermissionMode) =>
    withFacts(mode, { deny: ['Read(./.env)', 'Read(~/.ssh/**)', 'Edit(//etc/**)'] })
  const spellings: Action[] = [
    { type: 'read', paths: [`${ROOT}/.env`] },
    { type: 'read', paths: [`${ROOT}/./.env`] },
    { type: 'read', paths: [`${ROOT}/sub/../.env`] },
    { type: 'read', paths: [`${ROOT}//.env`] },
    { type: 'read', paths: [`${ROOT}/.ENV`] },
    { type: 'read', paths: [`${ROOT}/secret`] },
    { type: 'read', paths: [`${HOME}/.ssh/id_rsa`] },
    { type: 'read', paths: [`${ROOT}/lnk/.ssh/id_rsa`] },
    { type: 'read', paths: [`${ROOT}/sub/up/home/u/.ssh/id_rsa`] },
    { type: 'write', paths: ['/etc/passwd'] },
    { type: 'write', paths: [`${ROOT}/sub/up/etc/passwd`] },
  ]
  for (const mode of ['default', 'acceptEdits', 'plan', 'bypass'] as const) {
    it.each(spellings)(`%j is denied in ${mode}`, (action) => {
      expect(decide(action, ctx(mode), { toolName: action.type === 'read' ? 'Read' : 'Edit' }).decision).toBe(
        'deny',
      )
    })
  }
})

describe('protected folders are judged below the agent root', () => {
  it("a worktree agent's files under <project>/.z-engine/worktrees are its own, its .git and .z-engine are not", () => {
    const worktree = `${ROOT}/.z-engine/worktrees/ag1`
    const ctx = context('acceptEdits', {}, { projectRoot: worktree })
    expect(write(`${worktree}/src/a.ts`, ctx)).toBe('allow')
    expect(write(`${worktree}/.z-engine/settings.toml`, ctx)).toBe('ask')
    expect(write(`${worktree}/.husky/pre-commit`, ctx)).toBe('ask')
    expect(write(`${ROOT}/.z-engine/settings.toml`, ctx)).toBe('ask')
  })
  it('the main agent writing into a worktree folder of .z-engine is protected', () => {
    expect(write(`${ROOT}/.z-engine/worktrees/ag1/src/a.ts`, context('acceptEdits'))).toBe('ask')
  })
})
