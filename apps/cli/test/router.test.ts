import { describe, expect, it } from 'vitest'
import { closestMatch } from '../src/closest.js'
import { runCli } from '../src/router.js'
import { memoryIo } from '../src/testing-io.js'

describe('router', () => {
  it('prints the version', async () => {
    const run = memoryIo(['--version'])
    expect(await runCli(run.io)).toBe(0)
    expect(run.stdout()).toMatch(/^\d+\.\d+\.\d+\n$/)
  })

  it('exits 2 on an unknown command', async () => {
    const run = memoryIo(['nosuch'])
    expect(await runCli(run.io)).toBe(2)
    expect(run.stderr()).toContain("Unknown command 'nosuch'")
    // No plausible typo: the valid commands are listed instead.
    expect(run.stderr()).toMatch(/Valid commands: .*exec/)
  })

  it('lists commands in --help', async () => {
    const run = memoryIo(['--help'])
    expect(await runCli(run.io)).toBe(0)
    expect(run.stdout()).toContain('Usage: z-engine')
  })
})

describe('unknown words', () => {
  it('suggests the closest command for a typo', async () => {
    const run = memoryIo(['sesions'])
    expect(await runCli(run.io)).toBe(2)
    expect(run.stderr()).toContain("Did you mean 'sessions'?")
  })
})

describe('closestMatch', () => {
  it('suggests a near miss and nothing for a far one', () => {
    expect(closestMatch('sesions', ['sessions', 'exec', 'serve'])).toBe('sessions')
    expect(closestMatch('exce', ['sessions', 'exec', 'serve'])).toBe('exec')
    expect(closestMatch('zzzzzzzz', ['sessions', 'exec', 'serve'])).toBeUndefined()
  })
})
