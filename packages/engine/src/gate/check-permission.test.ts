import { describe, expect, it } from 'vitest'
import { checkPermission } from './check-permission.js'

const base = { cwd: '/proj', home: '/home/u' }

describe('checkPermission', () => {
  it('maps the tool input and decides like a session', () => {
    expect(checkPermission({ ...base, tool: 'Bash', input: { command: 'ls' } })).toMatchObject({
      ok: true,
      decision: 'allow',
    })
    expect(
      checkPermission({
        ...base,
        tool: 'Bash',
        input: { command: 'npm test && rm -rf ~' },
        rules: { allow: ['Bash(npm test:*)'] },
      }),
    ).toMatchObject({ ok: true, decision: 'ask' })
    expect(
      checkPermission({
        ...base,
        tool: 'Bash',
        input: { command: 'cat .env' },
        rules: { deny: ['Read(./.env)'] },
      }),
    ).toMatchObject({ ok: true, decision: 'deny', rule: 'Read(./.env) (input)' })
    expect(
      checkPermission({ ...base, tool: 'Write', input: { file_path: 'a.ts' }, mode: 'acceptEdits' }),
    ).toMatchObject({
      decision: 'allow',
    })
    expect(
      checkPermission({ ...base, tool: 'Write', input: { file_path: 'a.ts' }, mode: 'bypassPermissions' }),
    ).toMatchObject({
      decision: 'allow',
    })
    expect(
      checkPermission({ ...base, tool: 'Edit', input: { file_path: '.git/config' }, mode: 'acceptEdits' }),
    ).toMatchObject({
      decision: 'ask',
    })
  })

  it('explains its steps and reports bad rules', () => {
    const result = checkPermission({
      ...base,
      tool: 'Read',
      input: { file_path: '/etc/hosts' },
      rules: { allow: ['Bash('] },
    })
    expect(result.ok).toBe(true)
    if (!result.ok) return
    expect(result.steps[0]).toContain('Read maps to')
    expect(result.steps.some((step) => step.includes('unparseable rule'))).toBe(true)
    expect(result.ruleErrors).toHaveLength(1)
    expect(result.decision).toBe('ask')
  })

  it.each([
    [null, /JSON object/],
    [[], /JSON object/],
    [{ ...base, input: {} }, /"tool"/],
    [{ tool: 'Bash', input: {}, cwd: 'rel', home: '/h' }, /"cwd"/],
    [{ tool: 'Bash', input: {}, cwd: '/p' }, /"home"/],
    [{ ...base, tool: 'Bash', input: {}, mode: 'yolo' }, /"mode"/],
    [{ ...base, tool: 'Bash', input: {}, rules: [] }, /"rules"/],
    [{ ...base, tool: 'Bash', input: {}, additionalDirectories: ['x'] }, /additionalDirectories/],
  ])('%j is an error value', (request, message) => {
    const result = checkPermission(request)
    expect(result.ok).toBe(false)
    if (!result.ok) expect(result.error).toMatch(message)
  })

  it('takes sandbox facts, the read-only switch and private hosts', () => {
    const install = { ...base, tool: 'Bash', input: { command: 'npm install' } }
    expect(checkPermission(install)).toMatchObject({ decision: 'ask' })
    expect(checkPermission({ ...install, sandbox: { active: true, autoAllow: true } })).toMatchObject({
      decision: 'allow',
    })
    expect(
      checkPermission({ ...base, tool: 'Bash', input: { command: 'ls' }, autoAllowReadOnlyBash: false }),
    ).toMatchObject({
      decision: 'ask',
    })
    const local = { ...base, tool: 'WebFetch', input: { url: 'http://localhost:3000/' } }
    expect(checkPermission(local)).toMatchObject({ decision: 'deny' })
    expect(checkPermission({ ...local, allowedPrivateHosts: ['localhost'] })).toMatchObject({
      decision: 'ask',
    })
    expect(checkPermission({ ...install, sandbox: { active: 'yes' } })).toMatchObject({ ok: false })
    expect(checkPermission({ ...install, autoAllowReadOnlyBash: 'no' })).toMatchObject({ ok: false })
    expect(checkPermission({ ...install, allowedPrivateHosts: 'localhost' })).toMatchObject({ ok: false })
  })
})
