import { afterEach, describe, expect, it } from 'vitest'
import type { CheckInfo, Ports } from '../ports.js'
import { RecordingChecks } from '../recording-ports.js'
import { makeTestCtx, resultText } from '../testing.js'
import { verifyTool } from './verify.js'

const signal = new AbortController().signal
const contexts: Array<ReturnType<typeof makeTestCtx>> = []
const ctxWith = (ports: Ports) => {
  const ctx = makeTestCtx({ ports })
  contexts.push(ctx)
  return ctx
}
afterEach(() => {
  for (const ctx of contexts.splice(0)) ctx.cleanup()
})

const known: CheckInfo[] = [
  { id: 'test', kind: 'test', command: 'pnpm test', source: 'package.json', cwd: '/p' },
  {
    id: 'typecheck',
    kind: 'typecheck',
    command: 'pnpm exec tsc --noEmit',
    source: 'tsconfig.json',
    cwd: '/p',
  },
]

describe('Verify', () => {
  it('lists the checks with ids, kinds, commands and sources', async () => {
    const result = await verifyTool.call(
      { action: 'list' },
      ctxWith({ checks: new RecordingChecks(known) }),
      signal,
    )
    expect(resultText(result)).toContain('- test (test): pnpm test  [from package.json]')
    expect(resultText(result)).toContain('- typecheck (typecheck): pnpm exec tsc --noEmit')
  })

  it('runs the named checks, or all of them, and returns the port result as it is', async () => {
    const checks = new RecordingChecks(known, {
      ok: true,
      output: { content: [{ type: 'text', text: 'test: passed (12 tests)' }] },
    })
    const ctx = ctxWith({ checks })
    expect(resultText(await verifyTool.call({ action: 'run', checks: ['test', 'test'] }, ctx, signal))).toBe(
      'test: passed (12 tests)',
    )
    await verifyTool.call({ action: 'run' }, ctx, signal)
    expect(checks.runs).toEqual([['test'], ['test', 'typecheck']])
  })

  it('refuses unknown check ids and names the known ones', async () => {
    const checks = new RecordingChecks(known)
    const result = await verifyTool.call({ action: 'run', checks: ['lint'] }, ctxWith({ checks }), signal)
    expect(resultText(result)).toBe("No check 'lint'; available: test, typecheck.")
    expect(checks.runs).toEqual([])
  })

  it('says what to do when the project has no checks', async () => {
    const result = await verifyTool.call(
      { action: 'run' },
      ctxWith({ checks: new RecordingChecks([]) }),
      signal,
    )
    expect(result.ok).toBe(false)
    expect(resultText(result)).toContain('[[verification.checks]]')
  })

  it('is read-only and concurrency-safe only for list', () => {
    const ctx = ctxWith({})
    expect(verifyTool.isReadOnly({ action: 'list' })).toBe(true)
    expect(verifyTool.isReadOnly({ action: 'run' })).toBe(false)
    expect(verifyTool.isConcurrencySafe({ action: 'run' })).toBe(false)
    expect(verifyTool.action({ action: 'list' }, ctx)).toEqual({
      type: 'other',
      toolName: 'Verify',
      readOnly: true,
    })
    expect(verifyTool.action({ action: 'run' }, ctx)).toEqual({
      type: 'other',
      toolName: 'Verify',
      readOnly: false,
    })
    expect(verifyTool.title({ action: 'run', checks: ['test'] }, ctx)).toBe('Run checks test')
  })

  it("maps a run to its checks' shell commands, decided like Bash; unknown checks ask", () => {
    const base = { projectRoot: '/p', cwd: '/p', home: '/h' }
    expect(verifyTool.action({ action: 'run' }, { ...base, checks: known })).toEqual({
      type: 'execute',
      command: 'pnpm test ; pnpm exec tsc --noEmit',
      cwd: '/p',
    })
    const sub = [{ ...known[0]!, cwd: '/p/web app' }, known[1]!]
    expect(verifyTool.action({ action: 'run' }, { ...base, checks: sub })).toEqual({
      type: 'execute',
      command: "cd '/p/web app' && pnpm test ; cd /p && pnpm exec tsc --noEmit",
      cwd: '/p',
    })
    for (const input of [{ action: 'run' as const, checks: ['nope'] }, { action: 'run' as const }])
      expect(verifyTool.action(input, { ...base, ...(input.checks ? { checks: known } : {}) })).toEqual({
        type: 'other',
        toolName: 'Verify',
        readOnly: false,
      })
  })

  it('one check is its own permission: its line carries the check id (issue 39)', () => {
    const base = { projectRoot: '/p', cwd: '/p', home: '/h' }
    expect(verifyTool.action({ action: 'run', checks: ['typecheck'] }, { ...base, checks: known })).toEqual({
      type: 'execute',
      command: 'pnpm exec tsc --noEmit',
      cwd: '/p',
      check: 'typecheck',
    })
  })

  it('splits a run into one part per check, each decided on its own (issue 39)', () => {
    const base = { projectRoot: '/p', cwd: '/p', home: '/h', checks: known }
    const split = verifyTool.parts?.({ action: 'run' }, base)
    expect(split?.parts).toEqual([
      {
        id: 'test',
        title: 'test (pnpm test)',
        action: { type: 'execute', command: 'pnpm test', cwd: '/p', check: 'test' },
      },
      {
        id: 'typecheck',
        title: 'typecheck (pnpm exec tsc --noEmit)',
        action: { type: 'execute', command: 'pnpm exec tsc --noEmit', cwd: '/p', check: 'typecheck' },
      },
    ])
    expect(split?.only(['test'])).toEqual({ action: 'run', checks: ['test'] })
    expect(verifyTool.parts?.({ action: 'list' }, base)).toBeUndefined()
    expect(verifyTool.parts?.({ action: 'run', checks: ['nope'] }, base)).toBeUndefined()
  })

  it("shows the checks' commands on the approval card", async () => {
    const ctx = ctxWith({ checks: new RecordingChecks(known) })
    const preview = await verifyTool.preview({ action: 'run', checks: ['test'] }, ctx)
    expect(preview).toMatchObject({ type: 'command', command: expect.stringContaining('pnpm test') })
  })
})
