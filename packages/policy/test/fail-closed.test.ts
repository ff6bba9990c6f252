import type { PermissionMode } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { type Action, buildRuleSet, decide, parseRule } from '../src/index.js'
import { context, HOME, ROOT } from './helpers.js'

type Decision = 'allow' | 'ask' | 'deny'

describe('unparseable rules are reported and make matching actions ask (never silently dropped)', () => {
  it('reports every unparseable rule with its source and list', () => {
    const set = buildRuleSet([
      { source: 'project settings', deny: ['Bash(rm -rf', 'Read(../x)', 42], ask: ['Foo(bar)'] },
    ])
    expect(set.errors.map((error) => error.text)).toEqual(['Bash(rm -rf', 'Read(../x)', '42', 'Foo(bar)'])
    expect(set.unparsed?.map((entry) => [entry.kind, entry.tool])).toEqual([
      ['deny', 'Bash'],
      ['deny', 'Read'],
      ['deny', undefined],
      ['ask', undefined],
    ])
  })

  it.each<[string, Action, string, PermissionMode, Decision]>([
    // A broken deny for one tool makes that tool's calls ask, in every mode but never allow.
    ['Bash(rm -rf', { type: 'execute', command: 'ls', cwd: ROOT }, 'Bash', 'default', 'ask'],
    ['Bash(rm -rf', { type: 'execute', command: 'ls', cwd: ROOT }, 'Bash', 'bypass', 'ask'],
    ['Bash(rm -rf', { type: 'execute', command: 'ls', cwd: ROOT }, 'Bash', 'plan', 'ask'],
    ['bash(rm -rf', { type: 'execute', command: 'ls', cwd: ROOT }, 'Bash', 'default', 'ask'],
    ['Read(../.env)', { type: 'read', paths: [`${ROOT}/a.ts`] }, 'Read', 'default', 'ask'],
    ['Read(../.env)', { type: 'read', paths: [`${ROOT}/a.ts`] }, 'Grep', 'bypass', 'ask'],
    ['Edit(a\0b)', { type: 'write', paths: [`${ROOT}/a.ts`] }, 'Write', 'acceptEdits', 'ask'],
    ['WebFetch(example.com)', { type: 'fetch', url: 'https://example.com' }, 'WebFetch', 'bypass', 'ask'],
    // A broken Read or Edit deny may have guarded a file a shell command reads or writes.
    ['Read(../.env)', { type: 'execute', command: 'ls', cwd: ROOT }, 'Bash', 'default', 'ask'],
    // Other tools are unaffected by a broken Bash rule.
    ['Bash(rm -rf', { type: 'read', paths: [`${ROOT}/a.ts`] }, 'Read', 'default', 'allow'],
    // A rule whose tool cannot be told makes every call ask.
    ['Raed(./.env)', { type: 'read', paths: [`${ROOT}/a.ts`] }, 'Read', 'default', 'ask'],
    ['(((', { type: 'execute', command: 'ls', cwd: ROOT }, 'Bash', 'bypass', 'ask'],
    // A deny that did parse still denies.
    ['Bash(rm -rf', { type: 'write', paths: ['/etc/x'] }, 'Write', 'plan', 'deny'],
  ])('deny %j: %j by %s in %s → %s', (rule, action, tool, mode, expected) => {
    const decision = decide(action, context(mode, { deny: [rule] }), { toolName: tool })
    expect(decision.decision).toBe(expected)
    if (expected === 'ask') expect(decision.reason).toMatch(/could not be parsed/)
  })

  it('a broken ask rule also asks; a broken allow rule only never allows', () => {
    const action: Action = { type: 'execute', command: 'ls', cwd: ROOT }
    expect(decide(action, context('bypass', { ask: ['Bash(ls'] }), { toolName: 'Bash' }).decision).toBe('ask')
    expect(decide(action, context('default', { allow: ['Bash(ls'] }), { toolName: 'Bash' }).decision).toBe(
      'allow',
    )
    expect(
      decide(
        { type: 'execute', command: 'npm publish', cwd: ROOT },
        context('default', { allow: ['Bash(npm'] }),
        {
          toolName: 'Bash',
        },
      ).decision,
    ).toBe('ask')
  })

  it('a non-list rule section is reported and asks for everything', () => {
    const set = buildRuleSet([{ source: 'project settings', deny: 'Read(./.env)' as unknown as string[] }])
    expect(set.errors[0]?.message).toMatch(/list/)
    expect(
      decide(
        { type: 'read', paths: [`${ROOT}/a`] },
        { ...context('default'), rules: set },
        { toolName: 'Read' },
      ).decision,
    ).toBe('ask')
  })
})

describe('tool names in rules are matched case-insensitively', () => {
  it.each<[string, string]>([
    ['bash(npm test:*)', 'Bash'],
    ['BASH(npm test:*)', 'Bash'],
    ['read(./.env)', 'Read'],
    ['webfetch(domain:example.com)', 'WebFetch'],
    ['multiedit(src/**)', 'MultiEdit'],
    ['task(explore)', 'Agent'],
    ['glob', 'Glob'],
    ['MCP__github__create_issue', 'mcp__github__create_issue'],
  ])('%s is read as %s', (text, tool) => {
    const parsed = parseRule(text, 'test')
    expect(parsed.ok && parsed.rule.tool).toBe(tool)
  })

  it.each<[string[], Action, string, Decision]>([
    [['read(./.env)'], { type: 'read', paths: [`${ROOT}/.env`] }, 'Read', 'deny'],
    [['bash(rm:*)'], { type: 'execute', command: 'rm -rf x', cwd: ROOT }, 'Bash', 'deny'],
    [['edit(/src/**)'], { type: 'write', paths: [`${ROOT}/src/a.ts`] }, 'Edit', 'deny'],
    [['jobkill'], { type: 'other', toolName: 'JobKill', readOnly: false }, 'JobKill', 'deny'],
    [['MyTool'], { type: 'other', toolName: 'mytool', readOnly: false }, 'mytool', 'deny'],
  ])('deny %j stops %j', (deny, action, tool, expected) => {
    expect(decide(action, context('bypass', { deny }), { toolName: tool }).decision).toBe(expected)
  })
})

describe('domain rules cover subdomains', () => {
  it.each<[string, string, Decision]>([
    ['WebFetch(domain:example.com)', 'https://example.com/x', 'deny'],
    ['WebFetch(domain:example.com)', 'https://api.example.com/x', 'deny'],
    ['WebFetch(domain:example.com)', 'https://a.b.EXAMPLE.com./x', 'deny'],
    ['WebFetch(domain:example.com)', 'https://evilexample.com/x', 'allow'],
    ['WebFetch(domain:example.com)', 'https://example.com.evil.net/x', 'allow'],
    ['WebFetch(domain:*.example.com)', 'https://api.example.com/x', 'deny'],
    ['WebFetch(domain:EXAMPLE.com)', 'https://www.example.com/x', 'deny'],
  ])('deny %s, fetch %s in bypass → %s', (rule, url, expected) => {
    expect(
      decide({ type: 'fetch', url }, context('bypass', { deny: [rule] }), { toolName: 'WebFetch' }).decision,
    ).toBe(expected)
  })
})

describe('malformed tool input asks (refused in plan mode), in every mode', () => {
  it.each<[PermissionMode, Decision]>([
    ['default', 'ask'],
    ['acceptEdits', 'ask'],
    ['bypass', 'ask'],
    ['plan', 'deny'],
  ])('in %s → %s', (mode, expected) => {
    const action: Action = {
      type: 'other',
      toolName: 'Read',
      readOnly: false,
      malformed: 'file_path is not a string',
    }
    const decision = decide(action, context(mode), { toolName: 'Read' })
    expect(decision.decision).toBe(expected)
    expect(decision.reason).toContain('file_path is not a string')
  })

  it('a deny rule still denies a malformed call of its tool', () => {
    const action: Action = { type: 'other', toolName: 'Read', readOnly: false, malformed: 'no file_path' }
    expect(decide(action, context('default', { deny: ['Read'] }), { toolName: 'Read' }).decision).toBe('deny')
  })

  it('reads the home folder spelling like any other', () => {
    const ctx = context('default', { deny: ['Read(~/.aws/**)'] })
    expect(decide({ type: 'read', paths: [`${HOME}/.aws/credentials`] }, ctx).decision).toBe('deny')
  })
})
