import { DEFAULT_SETTINGS, type Settings } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { runUserShell } from './user-shell.js'

const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: '/tmp', MY_API_TOKEN: 'sk-secret' }

describe('runUserShell', () => {
  it('runs through host with the [shell.env] policy: secrets are not passed on', async () => {
    const result = await runUserShell('printenv MY_API_TOKEN || echo none; exit 3', {
      cwd: '/tmp',
      settings: DEFAULT_SETTINGS as Settings,
      baseEnv,
    })
    expect(result).toEqual({ output: 'none\n', exitCode: 3 })
  })

  it('passes what the policy sets', async () => {
    const settings = structuredClone(DEFAULT_SETTINGS) as Settings
    settings.shell.env.set = { GREETING: 'hi' }
    const result = await runUserShell('echo "$GREETING"', { cwd: '/tmp', settings, baseEnv })
    expect(result.output).toBe('hi\n')
  })
})
