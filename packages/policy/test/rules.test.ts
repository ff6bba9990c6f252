import { describe, expect, it } from 'vitest'
import { buildRuleSet, parseRule } from '../src/index.js'
import { act, bash, context } from './helpers.js'

describe('parseRule', () => {
  it.each([
    ['Bash', 'any'],
    ['Bash(npm test:*)', 'bashPrefix'],
    ['Bash(npm run *)', 'bashGlob'],
    ['Bash(npm test)', 'bashExact'],
    ['Bash(*)', 'any'],
    ['Read(./.env)', 'path'],
    ['Read(//etc/**)', 'path'],
    ['Read(~/.ssh/**)', 'path'],
    ['Edit(/docs/**)', 'path'],
    ['Write(src/**)', 'path'],
    ['WebFetch(domain:example.com)', 'domain'],
    ['mcp__github', 'mcp'],
    ['mcp__github__create_issue', 'mcp'],
    ['mcp__github__*', 'mcp'],
    ['Agent(explore)', 'name'],
    ['Task(explore)', 'name'],
    ['Skill(pdf)', 'name'],
    ['TodoWrite', 'any'],
    ['  Bash(ls:*)  ', 'bashPrefix'],
  ])('%s parses as %s', (text, type) => {
    const parsed = parseRule(text, 'test')
    expect(parsed.ok && parsed.rule.matcher.type).toBe(type)
  })

  it.each([
    ['', /expected/],
    ['Bash(', /expected/],
    ['Bash(npm test', /expected/],
    ['Bash()', /empty parentheses/],
    ['Bash(:*)', /prefix/],
    ['Bash(np*m:*)', /glob form/],
    ['Read(../x)', /cannot climb/],
    ['WebFetch(example.com)', /domain:/],
    ['WebFetch(domain:a*b.com)', /domain:/],
    ['mcp__', /server/],
    ['mcp__x(y)', /no parentheses/],
    ['TodoWrite(x)', /takes no specifier/],
    ['Glob(src/**)', /takes no specifier/],
    ['1Bash', /expected/],
    ['Bash(ls) extra', /expected/],
  ])('%j is an error naming what to write (%s)', (text, message) => {
    const parsed = parseRule(text, 'project settings')
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) {
      expect(parsed.error.message).toMatch(message)
      expect(parsed.error.source).toBe('project settings')
    }
  })

  it('never throws on non-strings', () => {
    expect(parseRule(42 as unknown as string, 's').ok).toBe(false)
    const set = buildRuleSet([{ source: 'user settings', allow: [null, 7, 'Bash(ls:*)'] as unknown[] }])
    expect(set.allow).toHaveLength(1)
    expect(set.errors).toHaveLength(2)
    expect(set.errors[0]?.source).toBe('user settings')
    expect(buildRuleSet([{ source: 'x', deny: 'Bash' as unknown as string[] }]).errors).toHaveLength(1)
  })

  it('a rule that fails to parse never allows', () => {
    const ctx = context('default', { allow: ['Bash(rm -rf', 'Edit(../**)', 'WebFetch(x)'] })
    expect(ctx.rules.errors).toHaveLength(3)
    expect(bash('rm -rf x', ctx).decision).toBe('ask')
    expect(act({ type: 'write', paths: ['/proj/a'] }, ctx).decision).toBe('ask')
  })
})

describe('rule matching', () => {
  it.each([
    ['Bash(npm test:*)', 'npm test', 'allow'],
    ['Bash(npm test:*)', 'npm test --coverage', 'allow'],
    ['Bash(npm test:*)', 'npm tests', 'ask'],
    ['Bash(npm run *)', 'npm run build', 'allow'],
    ['Bash(npm run *)', 'npm run', 'allow'],
    ['Bash(npm run *)', 'npm runx', 'ask'],
    ['Bash(npm test)', 'npm test', 'allow'],
    ['Bash(npm test)', 'npm test x', 'ask'],
    ['Bash(git *)', 'git push --force', 'allow'],
    ['Bash', 'anything at all', 'allow'],
    ['Bash(npm test:*)', './npm test', 'ask'],
    ['Bash(npm test:*)', 'npm   test', 'allow'],
    ['Bash(npm test:*)', 'npm "test"', 'allow'],
  ])('%s vs %j → %s', (rule, line, expected) => {
    expect(bash(line, context('default', { allow: [rule] })).decision).toBe(expected)
  })

  it.each([
    ['Edit(src/**)', '/proj/src/a/b.ts', 'allow'],
    ['Edit(src/**)', '/proj/lib/src/a.ts', 'ask'],
    ['Edit(/src/**)', '/proj/src/a.ts', 'allow'],
    ['Edit(*.md)', '/proj/docs/deep/a.md', 'allow'],
    ['Edit(docs)', '/proj/docs/a.md', 'allow'],
    ['Edit(docs)', '/proj/x/docs/a.md', 'allow'],
    ['Edit(./docs)', '/proj/x/docs/a.md', 'ask'],
    ['Edit(//tmp/**)', '/tmp/a', 'allow'],
    ['Edit(~/notes/**)', '/home/u/notes/a', 'allow'],
    ['Write(src/**)', '/proj/src/a', 'allow'],
    ['Edit', '/proj/anything', 'allow'],
    ['Read(src/**)', '/proj/src/a', 'ask'],
  ])('%s for a write of %s → %s', (rule, path, expected) => {
    expect(act({ type: 'write', paths: [path] }, context('default', { allow: [rule] })).decision).toBe(
      expected,
    )
  })

  it('deny > ask > allow, across sources', () => {
    const ctx = {
      ...context(),
      rules: buildRuleSet([
        { source: 'user settings', allow: ['Bash(git:*)'] },
        { source: 'project settings', ask: ['Bash(git push:*)'] },
        { source: 'session', deny: ['Bash(git push --force:*)'] },
      ]),
    }
    expect(bash('git fetch', ctx).decision).toBe('allow')
    expect(bash('git push', ctx)).toMatchObject({
      decision: 'ask',
      rule: 'Bash(git push:*) (project settings)',
    })
    expect(bash('git push --force', ctx)).toMatchObject({
      decision: 'deny',
      rule: 'Bash(git push --force:*) (session)',
    })
  })

  it('turn-only rules take effect like any layer', () => {
    const ctx = { ...context(), rules: buildRuleSet([{ source: 'turn', allow: ['Bash(make:*)'] }]) }
    expect(bash('make build', ctx)).toMatchObject({ decision: 'allow', rule: 'Bash(make:*) (turn)' })
  })

  it.each([
    ['mcp__db', 'db', 'query', 'deny'],
    ['mcp__db__*', 'db', 'query', 'deny'],
    ['mcp__db__query', 'db', 'query', 'deny'],
    ['mcp__db__query', 'db', 'drop', 'ask'],
    ['mcp__dbx', 'db', 'query', 'ask'],
    ['mcp__*', 'db', 'query', 'deny'],
    ['mcp__*', 'other', 'ListMcpResources', 'deny'],
  ])('deny %s vs %s/%s → %s', (rule, server, tool, expected) => {
    expect(act({ type: 'mcpCall', server, tool }, context('default', { deny: [rule] })).decision).toBe(
      expected,
    )
  })

  it('MCP, agents, skills, web search and other tools', () => {
    expect(
      act({ type: 'mcpCall', server: 'db', tool: 'q' }, context('default', { allow: ['mcp__db'] })).decision,
    ).toBe('allow')
    expect(act({ type: 'mcpCall', server: 'db', tool: 'q' }).suggestion).toEqual({
      rule: 'mcp__db__q',
      scope: 'project',
    })
    expect(act({ type: 'mcpCall', server: 'db', tool: 'q', readOnly: true }, context('plan')).decision).toBe(
      'ask',
    )
    expect(act({ type: 'mcpCall', server: 'db', tool: 'q' }, context('plan')).decision).toBe('deny')
    expect(
      act({ type: 'mcpCall', server: 'db', tool: 'ReadMcpResource', readOnly: true, resource: true })
        .decision,
    ).toBe('allow')
    expect(act({ type: 'startAgent', agentType: 'explore' }).decision).toBe('allow')
    expect(
      act({ type: 'startAgent', agentType: 'explore' }, context('default', { deny: ['Agent(explore)'] }))
        .decision,
    ).toBe('deny')
    expect(
      act({ type: 'startAgent', agentType: 'x' }, context('default', { ask: ['Task(*)'] })).decision,
    ).toBe('ask')
    expect(act({ type: 'loadSkill', name: 'pdf' }).decision).toBe('allow')
    expect(
      act({ type: 'loadSkill', name: 'pdf' }, context('default', { deny: ['Skill(pdf)'] })).decision,
    ).toBe('deny')
    expect(act({ type: 'webSearch', query: 'x' }).decision).toBe('ask')
    expect(
      act({ type: 'webSearch', query: 'x' }, context('default', { allow: ['WebSearch'] })).decision,
    ).toBe('allow')
    expect(act({ type: 'other', toolName: 'JobKill', readOnly: false }, context(), 'JobKill').decision).toBe(
      'ask',
    )
    expect(
      act(
        { type: 'other', toolName: 'JobKill', readOnly: false },
        context('default', { allow: ['JobKill'] }),
        'JobKill',
      ).decision,
    ).toBe('allow')
    expect(
      act(
        { type: 'other', toolName: 'TodoWrite', readOnly: true },
        context('default', { deny: ['TodoWrite'] }),
        'TodoWrite',
      ).decision,
    ).toBe('deny')
    expect(
      act({ type: 'read', paths: ['/proj/a'] }, context('default', { deny: ['Grep'] }), 'Grep').decision,
    ).toBe('deny')
  })
})

describe('readDenied (Glob and Grep filter their results with it)', () => {
  it('answers per file', async () => {
    const { readDenied } = await import('../src/index.js')
    const ctx = context('default', { deny: ['Read(./.env)', 'Read(secrets/**)'] })
    expect(readDenied('/proj/.env', ctx)).toBe(true)
    expect(readDenied('/proj/src/../.env', ctx)).toBe(true)
    expect(readDenied('/proj/secrets/a/b', ctx)).toBe(true)
    expect(readDenied('/proj/src/.env', ctx)).toBe(false)
    expect(readDenied('/proj/src/a.ts', ctx)).toBe(false)
  })
})
