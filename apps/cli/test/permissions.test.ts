import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../src/router.js'
import { memoryIo } from '../src/testing-io.js'

const base = { cwd: '/repo', home: '/home/me', mode: 'default' }

function lines(...requests: unknown[]): string {
  return requests
    .map((request) => (typeof request === 'string' ? request : JSON.stringify(request)))
    .join('\n')
}

async function check(stdin: string, extra: string[] = []) {
  const run = memoryIo(['permissions', 'check', ...extra], { stdin })
  const code = await runCli(run.io)
  const out = run
    .stdout()
    .trim()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
  return { code, out, stderr: run.stderr() }
}

describe('z-engine permissions check', () => {
  it('answers one line per request', async () => {
    const { code, out } = await check(
      lines(
        { ...base, tool: 'Bash', input: { command: 'ls -la' } },
        {
          ...base,
          tool: 'Bash',
          input: { command: 'npm test && rm -rf ~' },
          rules: { allow: ['Bash(npm test:*)'] },
        },
        { ...base, tool: 'Bash', input: { command: 'cat .env' }, rules: { deny: ['Read(./.env)'] } },
        { ...base, tool: 'Write', input: { file_path: 'src/a.ts', content: '' }, mode: 'plan' },
        { ...base, tool: 'WebFetch', input: { url: 'http://169.254.169.254/' }, mode: 'bypassPermissions' },
      ),
    )
    expect(code).toBe(0)
    expect(out.map((answer) => answer.decision)).toEqual(['allow', 'ask', 'deny', 'deny', 'deny'])
    expect(out[2]?.rule).toBe('Read(./.env) (input)')
    // The rm needs its own rule and the write outside the project an Edit rule for that path only.
    const suggestion = out[1]?.suggestion as { rule?: string; rules?: string[]; scope?: string } | undefined
    expect(suggestion).toMatchObject({ rule: 'Bash(rm -rf ~)', scope: 'session' })
    expect(suggestion?.rules).toEqual(['Bash(rm -rf ~)', expect.stringMatching(/^Edit\(\/\/.+\)$/)])
    expect(suggestion?.rules?.[1]).not.toContain('*')
    expect(typeof out[0]?.reason).toBe('string')
  })

  it('a line without cwd or home is decided in the current folder, with your home', async () => {
    const run = memoryIo(['permissions', 'check'], {
      stdin: lines({ tool: 'Write', input: { file_path: 'src/a.ts', content: '' }, mode: 'acceptEdits' }),
      cwd: '/work/repo',
      env: { HOME: '/home/me' },
    })
    expect(await runCli(run.io)).toBe(0)
    expect(JSON.parse(run.stdout().trim())).toMatchObject({ decision: 'allow' })
  })

  it('reports a malformed line and keeps going', async () => {
    const { code, out } = await check(
      lines(
        '{not json',
        { ...base, input: {} },
        '',
        { ...base, tool: 'Read', input: { file_path: 'a' } },
        '[]',
      ),
    )
    expect(code).toBe(1)
    expect(out).toHaveLength(4)
    expect(out[0]?.error).toMatch(/line 1: not valid JSON/)
    expect(out[1]?.error).toMatch(/line 2: "tool"/)
    expect(out[2]?.decision).toBe('allow')
    expect(out[3]?.error).toMatch(/line 5/)
  })

  it('--explain prints the pipeline steps', async () => {
    const { out } = await check(lines({ ...base, tool: 'Bash', input: { command: 'git push' } }), [
      '--explain',
    ])
    const steps = out[0]?.steps as string[]
    expect(steps[0]).toContain('Bash maps to')
    expect(steps.some((step) => step.includes('lexed 1 command'))).toBe(true)
    expect(steps[steps.length - 1]).toMatch(/^→ ask/)
  })

  it('reports rules that did not parse', async () => {
    const { out } = await check(
      lines({ ...base, tool: 'Bash', input: { command: 'rm x' }, rules: { allow: ['Bash(rm'] } }),
    )
    expect(out[0]?.decision).toBe('ask')
    expect(out[0]?.ruleErrors).toHaveLength(1)
  })

  it('rejects a missing or unknown subcommand', async () => {
    const missing = memoryIo(['permissions'])
    expect(await runCli(missing.io)).toBe(2)
    expect(missing.stderr()).toContain('Missing subcommand')
    const unknown = memoryIo(['permissions', 'chek'])
    expect(await runCli(unknown.io)).toBe(2)
    expect(unknown.stderr()).toContain("Did you mean 'check'")
    const help = memoryIo(['permissions', '--help'])
    expect(await runCli(help.io)).toBe(0)
    expect(help.stdout()).toContain('Usage: z-engine permissions check')
  })

  it('resolves symlinks on this machine and fails closed on rule classes (issue 12)', async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), 'ze-cli-links-')))
    try {
      const repo = join(dir, 'repo')
      const home = join(dir, 'home')
      mkdirSync(join(repo, '.git'), { recursive: true })
      mkdirSync(home)
      symlinkSync(home, join(repo, 'lnk'))
      symlinkSync('.git', join(repo, 'g'))
      const at = { cwd: repo, home }
      const { code, out } = await check(
        lines(
          { ...at, tool: 'Read', input: { file_path: 'lnk/.ssh/id_rsa' } },
          { ...at, tool: 'Edit', input: { file_path: 'g/hooks/pre-commit' }, mode: 'acceptEdits' },
          { ...at, tool: 'Read', input: { file_path: './.env' }, rules: { deny: ['read(.env)'] } },
          { ...at, tool: 'Bash', input: { command: 'ls' }, mode: 'bypass', rules: { deny: ['Bash(rm -rf'] } },
          { ...at, tool: 'Read', input: { file_path: 42 } },
        ),
      )
      expect(code).toBe(0)
      expect(out.map((answer) => answer.decision)).toEqual(['ask', 'ask', 'deny', 'ask', 'ask'])
      expect(out[0]?.reason).toContain(join(home, '.ssh', 'id_rsa'))
      expect(out[3]?.ruleErrors).toEqual([expect.stringContaining('Bash(rm -rf')])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
