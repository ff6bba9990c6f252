import { describe, expect, it } from 'vitest'
import { act, bash, context } from './helpers.js'

/** Permission rules read the way Claude Code reads them (issue 18, "Settings and permissions"). */

describe('Claude Code: deny rules on MCP servers', () => {
  it('mcp__* denies every tool of every server, even in bypass mode', () => {
    const decision = act(
      { type: 'mcpCall', server: 'github', tool: 'create_issue' },
      context('bypass', { deny: ['mcp__*'] }),
    )
    expect(decision).toMatchObject({ decision: 'deny', rule: 'mcp__* (test)' })
  })

  it('mcp__server denies that server only', () => {
    const ctx = context('bypass', { deny: ['mcp__github'] })
    expect(act({ type: 'mcpCall', server: 'github', tool: 'x' }, ctx).decision).toBe('deny')
    expect(act({ type: 'mcpCall', server: 'linear', tool: 'x' }, ctx).decision).toBe('allow')
  })
})

describe('Claude Code: a Read deny rule also stops editing the same path', () => {
  it('Edit and Write of a file a Read rule denies are denied, naming the Read rule', () => {
    const ctx = context('bypass', { deny: ['Read(./.env)'] })
    for (const tool of ['Edit', 'Write', 'MultiEdit']) {
      expect(act({ type: 'write', paths: ['/proj/.env'] }, ctx, tool)).toMatchObject({
        decision: 'deny',
        rule: 'Read(./.env) (test)',
      })
    }
    expect(act({ type: 'write', paths: ['/proj/src/a.ts'] }, ctx, 'Edit').decision).toBe('allow')
  })

  it('a folder rule covers files below it, and a shell redirect into it', () => {
    const ctx = context('bypass', { deny: ['Read(secrets/**)'] })
    expect(act({ type: 'write', paths: ['/proj/secrets/key.pem'] }, ctx, 'Write').decision).toBe('deny')
    expect(bash('echo x > secrets/key.pem', ctx).decision).toBe('deny')
  })

  it('a bare Read deny is about the Read tool, not about edits', () => {
    expect(
      act({ type: 'write', paths: ['/proj/a.ts'] }, context('bypass', { deny: ['Read'] }), 'Edit').decision,
    ).toBe('allow')
  })
})

describe('Claude Code: Write(path) rules', () => {
  it('allow, ask and deny writes by path like Edit rules', () => {
    expect(
      act(
        { type: 'write', paths: ['/proj/out/a.txt'] },
        context('default', { allow: ['Write(out/**)'] }),
        'Write',
      ),
    ).toMatchObject({
      decision: 'allow',
      rule: 'Write(out/**) (test)',
    })
    expect(
      act(
        { type: 'write', paths: ['/proj/out/a.txt'] },
        context('bypass', { deny: ['Write(out/**)'] }),
        'Edit',
      ).decision,
    ).toBe('deny')
    expect(
      act(
        { type: 'write', paths: ['/proj/src/a.txt'] },
        context('acceptEdits', { ask: ['Write(src/**)'] }),
        'Write',
      ).decision,
    ).toBe('ask')
  })
})

describe('Claude Code: environment-variable prefixes on Bash commands', () => {
  it('Bash(npm test:*) allows NODE_ENV=test npm test (a variable that cannot change what runs is dropped)', () => {
    expect(bash('NODE_ENV=test npm test', context('default', { allow: ['Bash(npm test:*)'] }))).toMatchObject(
      {
        decision: 'allow',
        rule: 'Bash(npm test:*) (test)',
      },
    )
    expect(
      bash('RUST_LOG=debug GOOS=linux npm test -- -u', context('default', { allow: ['Bash(npm test:*)'] }))
        .decision,
    ).toBe('allow')
  })

  it('a rule that spells the assignment matches it: Bash(NODE_ENV=test npm test)', () => {
    expect(
      bash('NODE_ENV=test npm test', context('default', { allow: ['Bash(NODE_ENV=test npm test)'] }))
        .decision,
    ).toBe('allow')
    expect(
      bash(
        'NODE_OPTIONS=--inspect node app.js',
        context('default', { allow: ['Bash(NODE_OPTIONS=--inspect node:*)'] }),
      ).decision,
    ).toBe('allow')
  })

  it('a variable that can change what runs is never dropped by an allow rule', () => {
    for (const line of [
      'NODE_OPTIONS=--require=./x.js npm test',
      'LD_PRELOAD=/tmp/x.so npm test',
      'PATH=/tmp npm test',
    ]) {
      expect(bash(line, context('default', { allow: ['Bash(npm test:*)', 'Bash(* test)'] })).decision).toBe(
        'ask',
      )
    }
  })

  it('deny and ask rules match the command behind any prefix, and a rule that names the prefix', () => {
    expect(bash('NODE_ENV=test npm test', context('bypass', { deny: ['Bash(npm test:*)'] })).decision).toBe(
      'deny',
    )
    expect(bash('FOO=1 rm -rf build', context('bypass', { deny: ['Bash(FOO=1 rm:*)'] })).decision).toBe(
      'deny',
    )
    expect(bash('CI=1 git push', context('acceptEdits', { ask: ['Bash(git push:*)'] })).decision).toBe('ask')
  })
})

describe('Claude Code: Skill(name *) rules match skill arguments', () => {
  const skill = (name: string, args?: string) => ({
    type: 'loadSkill' as const,
    name,
    ...(args === undefined ? {} : { args }),
  })

  it('Skill(name) is the skill with any arguments', () => {
    const ctx = context('default', { deny: ['Skill(deploy)'] })
    expect(act(skill('deploy', 'prod'), ctx).decision).toBe('deny')
    expect(act(skill('deploy'), ctx).decision).toBe('deny')
    expect(act(skill('review'), ctx).decision).toBe('allow')
  })

  it('Skill(name prod*) and Skill(name:*) read the arguments', () => {
    const ctx = context('default', { deny: ['Skill(deploy prod*)'], ask: ['Skill(release:*)'] })
    expect(act(skill('deploy', 'production --force'), ctx)).toMatchObject({
      decision: 'deny',
      rule: 'Skill(deploy prod*) (test)',
    })
    expect(act(skill('deploy', 'staging'), ctx).decision).toBe('allow')
    expect(act(skill('release', '1.2  now'), ctx).decision).toBe('ask')
    expect(act(skill('releases'), ctx).decision).toBe('allow')
  })

  it('Skill(name *) covers the skill with or without arguments', () => {
    const ctx = context('default', { ask: ['Skill(deploy *)'] })
    expect(act(skill('deploy'), ctx).decision).toBe('ask')
    expect(act(skill('deploy', 'x y'), ctx).decision).toBe('ask')
    expect(act(skill('deployer'), ctx).decision).toBe('allow')
  })
})
