import { describe, expect, it } from 'vitest'
import { parseRule } from '../src/index.js'
import { act, context, ROOT } from './helpers.js'

/** A Verify run of one check: the check's command, marked with its id. */
const check = (id: string, command: string) => ({ type: 'execute' as const, command, cwd: ROOT, check: id })

describe('Verify rules name a check (issue 39)', () => {
  it('Verify(test) parses as a check name; Verify alone as every check', () => {
    const named = parseRule('Verify(test)', 'test')
    expect(named.ok && named.rule.matcher).toEqual({ type: 'name', name: 'test' })
    const bare = parseRule('verify', 'test')
    expect(bare.ok && bare.rule.tool).toBe('Verify')
  })

  it('an allow rule for one check allows that check and no other', () => {
    const ctx = context('default', { allow: ['Verify(test)'] })
    const test = act(check('test', 'npm test'), ctx, 'Verify')
    expect(test.decision).toBe('allow')
    expect(test.rule).toBe('Verify(test) (test)')
    const typecheck = act(check('typecheck', 'pnpm run typecheck'), ctx, 'Verify')
    expect(typecheck.decision).toBe('ask')
  })

  it('a bare Verify allow rule allows every check', () => {
    const ctx = context('default', { allow: ['Verify'] })
    expect(act(check('build', 'npm run build'), ctx, 'Verify').decision).toBe('allow')
  })

  it('deny and ask rules for a check win over an allow rule', () => {
    const deny = context('default', { allow: ['Verify'], deny: ['Verify(build)'] })
    const denied = act(check('build', 'npm run build'), deny, 'Verify')
    expect(denied).toMatchObject({ decision: 'deny', rule: 'Verify(build) (test)' })
    expect(act(check('test', 'npm test'), deny, 'Verify').decision).toBe('allow')
    const ask = context('default', { allow: ['Verify'], ask: ['Verify(test)'] })
    expect(act(check('test', 'npm test'), ask, 'Verify').decision).toBe('ask')
  })

  it('a Verify rule never covers a Bash call, nor what the check line reaches beyond itself', () => {
    const ctx = context('default', { allow: ['Verify(test)'], deny: ['Read(./.env)'] })
    expect(act({ type: 'execute', command: 'npm test', cwd: ROOT }, ctx, 'Bash').decision).toBe('ask')
    expect(act(check('test', 'cat .env'), ctx, 'Verify').decision).toBe('deny')
    // Bash rules still hold for the check's command.
    const bashDeny = context('default', { allow: ['Verify'], deny: ['Bash(npm test)'] })
    expect(act(check('test', 'npm test'), bashDeny, 'Verify').decision).toBe('deny')
  })

  it('plan mode still refuses a check', () => {
    const ctx = context('plan', { allow: ['Verify(test)'] })
    expect(act(check('test', 'npm test'), ctx, 'Verify').decision).toBe('deny')
  })

  it("a check's ask suggests the Verify rule for that check", () => {
    const asked = act(check('typecheck', 'pnpm run typecheck'), context(), 'Verify')
    expect(asked.decision).toBe('ask')
    expect(asked.suggestion).toEqual({ rule: 'Verify(typecheck)', scope: 'project' })
  })
})
