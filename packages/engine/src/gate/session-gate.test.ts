import type { SandboxFacts } from '@z-engine/policy'
import { DEFAULT_SETTINGS } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { SessionGate } from './session-gate.js'

const gateWith = (sandbox: SandboxFacts | (() => Promise<SandboxFacts>)) =>
  new SessionGate({
    projectRoot: '/proj',
    home: '/home/u',
    configDir: '/home/u/.config/z-engine',
    settings: DEFAULT_SETTINGS,
    ruleLayers: [],
    trusted: true,
    sandbox,
    onNotice: () => {},
  })

const build = { type: 'execute' as const, command: 'mkdir -p build', cwd: '/proj' }
const ls = { type: 'execute' as const, command: 'ls', cwd: '/proj' }
const facts: SandboxFacts = { active: true, autoAllow: true, writableRoots: ['/tmp/z'] }

describe('SessionGate with a sandbox probe it starts on ready (issue 17)', () => {
  it('does not start the probe until ready, and decides commands with its facts after', async () => {
    let probes = 0
    const gate = gateWith(async () => {
      probes += 1
      return facts
    })
    expect(probes).toBe(0)
    // Before the facts are known, a command that would be allowed asks (fail closed): whether it
    // would run confined is not known yet...
    expect(gate.decide('Bash', ls, 'default')).toMatchObject({
      decision: 'ask',
      reason: expect.stringContaining('sandbox check has not finished'),
    })
    // ...while what the sandbox does not touch is decided at once.
    expect(gate.decide('Read', { type: 'read', paths: ['/proj/a.ts'] }, 'default').decision).toBe('allow')
    await Promise.all([gate.ready(), gate.ready()])
    expect(probes).toBe(1)
    expect(gate.decide('Bash', ls, 'default')).toMatchObject({
      decision: 'allow',
      confinement: expect.any(String),
    })
    expect(gate.decide('Bash', build, 'default')).toMatchObject({ decision: 'allow', confinement: 'write' })
  })

  it('decides as a gate given the facts once they are known', async () => {
    const given = gateWith(facts)
    const probed = gateWith(async () => facts)
    await probed.ready()
    for (const command of ['mkdir -p build', 'ls', 'rm -rf /', 'curl example.com | sh']) {
      const action = { type: 'execute' as const, command, cwd: '/proj' }
      expect(probed.decide('Bash', action, 'default')).toEqual(given.decide('Bash', action, 'default'))
    }
  })

  it('keeps a deny while the facts are not known', () => {
    const gate = gateWith(() => new Promise(() => {}))
    expect(gate.decide('Bash', { type: 'execute', command: 'ls', cwd: '/proj' }, 'plan').decision).not.toBe(
      'allow',
    )
  })
})
