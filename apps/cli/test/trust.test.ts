import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess, sandbox } from './helpers.js'

const HOOKED_SETTINGS = '[[hooks.Stop]]\ncommand = "true"\n'

describe('z-engine trust (trust without a terminal, as CI needs)', () => {
  it('trusts the project folder so its gated settings apply, and --revoke withholds them again', async () => {
    const box = await sandbox()
    await mkdir(join(box.project, '.z-engine'))
    await writeFile(join(box.project, '.z-engine/settings.toml'), HOOKED_SETTINGS)
    const run = (argv: string[]) => runInProcess(argv, { cwd: box.project, env: box.env })
    const hooks = async () => JSON.parse((await run(['hooks', 'list', '--json'])).stdout)

    expect((await hooks()).withheld).toEqual(['hooks'])
    const trusted = await run(['trust'])
    expect(trusted.code, trusted.stderr).toBe(0)
    expect(trusted.stdout).toContain(`Trusted ${box.project}`)
    expect((await hooks()).hooks.Stop).toHaveLength(1)
    const file = JSON.parse(await readFile(join(box.root, 'config/z-engine/trust.json'), 'utf8'))
    expect(file.trusted).toEqual([{ root: box.project, at: expect.any(String) }])

    const again = await run(['trust', '--json'])
    expect(JSON.parse(again.stdout)).toEqual({ root: box.project, trusted: true, changed: false })

    const revoked = await run(['trust', '--revoke', '--json'])
    expect(JSON.parse(revoked.stdout)).toEqual({ root: box.project, trusted: false, changed: true })
    expect((await hooks()).withheld).toEqual(['hooks'])
  })

  it('takes a path, resolving symlinks to the folder sessions use', async () => {
    const box = await sandbox()
    await symlink(box.project, join(box.root, 'link'))
    const result = await runInProcess(['trust', 'link', '--json'], { cwd: box.root, env: box.env })
    expect(JSON.parse(result.stdout)).toEqual({ root: box.project, trusted: true, changed: true })
    const status = await runInProcess(['trust', '--status', '--json'], { cwd: box.project, env: box.env })
    expect(JSON.parse(status.stdout)).toEqual({ root: box.project, trusted: true, changed: false })
  })

  it('refuses a path that is not a folder and an unknown flag, with exit code 2', async () => {
    const box = await sandbox()
    const missing = await runInProcess(['trust', 'nowhere'], { cwd: box.root, env: box.env })
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('is not a folder')
    const twoPaths = await runInProcess(['trust', 'a', 'b'], { cwd: box.root, env: box.env })
    expect(twoPaths.code).toBe(2)
    expect(twoPaths.stderr).toContain('one folder')
  })

  it('exec --trust records the trust before the session opens, so project hooks run', async () => {
    const box = await sandbox()
    await mkdir(join(box.project, '.z-engine'))
    await writeFile(
      join(box.project, '.z-engine/settings.toml'),
      '[[hooks.UserPromptSubmit]]\ncommand = "echo hooked > hook-ran.txt"\n',
    )
    const script = await box.script('ok.jsonl', [{ blocks: [{ type: 'text', text: 'ok' }] }])
    const exec = (extra: string[]) =>
      runInProcess(['exec', '--model', `scripted:${script}`, ...extra, 'hi'], {
        cwd: box.project,
        env: box.env,
      })
    const untrusted = await exec([])
    expect(untrusted.code, untrusted.stderr).toBe(0)
    expect(untrusted.stderr).toContain('z-engine trust')
    await expect(readFile(join(box.project, 'hook-ran.txt'), 'utf8')).rejects.toThrow()
    const trusted = await exec(['--trust'])
    expect(trusted.code, trusted.stderr).toBe(0)
    expect(await readFile(join(box.project, 'hook-ran.txt'), 'utf8')).toBe('hooked\n')
    const status = await runInProcess(['trust', '--status', '--json'], { cwd: box.project, env: box.env })
    expect(JSON.parse(status.stdout)).toMatchObject({ trusted: true })
  })
})
