import { describe, expect, it } from 'vitest'
import { closestMatch } from '../src/closest.js'
import { COMMANDS, routeOf, runCli } from '../src/router.js'
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

describe('prompts without a command (Claude Code habits)', () => {
  it("routes -p / --print to Claude Code's headless mode and a bare prompt to exec", () => {
    expect(routeOf(['-p', 'fix the bug'])).toEqual({ command: 'print', argv: ['fix the bug'] })
    expect(routeOf(['--print', '--model', 'x', 'hi'])).toEqual({
      command: 'print',
      argv: ['--model', 'x', 'hi'],
    })
    expect(routeOf(['--model', 'x', '-p', 'hi'])).toEqual({ command: 'print', argv: ['--model', 'x', 'hi'] })
    expect(routeOf(['fix the failing test'])).toEqual({ command: 'exec', argv: ['fix the failing test'] })
    expect(routeOf(['fix', 'the', 'bug'])).toEqual({ command: 'exec', argv: ['fix', 'the', 'bug'] })
    // After `--`, `-p` is prompt text.
    expect(routeOf(['exec', '--', '-p'])).toEqual({ command: 'exec', argv: ['--', '-p'] })
    expect(routeOf(['sessions', 'list'])).toEqual({ command: 'sessions', argv: ['list'] })
  })

  it('keeps a one-word typo an error, saying how to send a one-word prompt', async () => {
    const typo = memoryIo(['sesions', 'list'])
    expect(await runCli(typo.io)).toBe(2)
    expect(typo.stderr()).toContain("Did you mean 'sessions'?")
    const word = memoryIo(['refactor'])
    expect(await runCli(word.io)).toBe(2)
    expect(word.stderr()).toContain("z-engine -p 'refactor'")
  })

  it('-p without a prompt and stdin empty is a usage error', async () => {
    const run = memoryIo(['-p'], { stdin: '' })
    expect(await runCli(run.io)).toBe(2)
    expect(run.stderr()).toContain('prompt')
  })
})

describe('closestMatch', () => {
  it('suggests a near miss and nothing for a far one', () => {
    expect(closestMatch('sesions', ['sessions', 'exec', 'serve'])).toBe('sessions')
    expect(closestMatch('exce', ['sessions', 'exec', 'serve'])).toBe('exec')
    expect(closestMatch('zzzzzzzz', ['sessions', 'exec', 'serve'])).toBeUndefined()
  })
})

describe("every command's --help (issue 39, the new-user trial)", () => {
  it('fits a 120-column terminal, and the sessions help lists its subcommands together', async () => {
    for (const command of COMMANDS) {
      const run = memoryIo([command.name, '--help'])
      expect(await runCli(run.io), command.name).toBe(0)
      const wide = run
        .stdout()
        .split('\n')
        .filter((line) => line.length > 120)
      expect(wide, `${command.name} --help`).toEqual([])
    }
    const sessions = memoryIo(['sessions', '--help'])
    await runCli(sessions.io)
    const rows = sessions.stdout().split('\n')
    const show = rows.findIndex((line) => line.trimStart().startsWith('show <id>'))
    expect(rows[show + 1]?.trimStart()).toMatch(/^fork <id>/)
  })
})
