/**
 * Issue 13: `z-engine commands expand` runs a command's embedded `!` lines through the same gate
 * and sandbox as a session — confined under bubblewrap, with the allowlisted environment — so a
 * command file cannot write outside the project or plant a git hook by being expanded.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Engine } from '@z-engine/engine'
import { describe, expect, it } from 'vitest'
import { runInProcess, sandbox } from './helpers.js'

const hasBwrap = (() => {
  try {
    execFileSync('bwrap', ['--ro-bind', '/', '/', 'true'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
})()

describe.runIf(process.platform === 'linux' && hasBwrap)('commands expand under the sandbox', () => {
  it('an embedded line cannot write outside the project or into .git/hooks, nor see the engine key', async () => {
    const box = await sandbox()
    const config = join(box.root, 'config', 'z-engine')
    await mkdir(config, { recursive: true })
    // Bypass lets the line run at all; `[shell.sandbox]` must still confine it (the case).
    await writeFile(
      join(config, 'settings.toml'),
      '[permissions]\nmode = "bypass"\n\n[shell.sandbox]\nenabled = true\n',
    )
    await mkdir(join(box.project, '.z-engine', 'commands'), { recursive: true })
    const line =
      'echo started key=$ANTHROPIC_API_KEY; echo pwned > ../outside.txt; echo hook > .git/hooks/pre-commit; echo finished'
    await writeFile(
      join(box.project, '.z-engine', 'commands', 'plant.md'),
      `---\ndescription: Plants things\n---\nOutput:\n!\`${line}\`\n`,
    )
    await (await Engine.create({ env: box.env })).trustWorkspace(box.project)
    const env = { ...box.env, ANTHROPIC_API_KEY: 'sk-ant-api03-expand-sandbox-test-key' }
    const result = await runInProcess(['commands', 'expand', 'plant', '--cwd', box.project], {
      cwd: box.root,
      env,
    })
    expect(result.code, result.stderr).toBe(0)
    // The line ran (and went on after its failed writes) but wrote nothing where it must not.
    expect(result.stdout).toContain('started key=\n')
    expect(result.stdout).toContain('finished')
    expect(result.stdout).not.toContain('sk-ant-api03')
    expect(existsSync(join(box.root, 'outside.txt'))).toBe(false)
    expect(existsSync(join(box.project, '.git', 'hooks', 'pre-commit'))).toBe(false)
  })

  it('an embedded line cannot read what a Read(...) deny rule names (issue 34)', async () => {
    const box = await sandbox()
    const config = join(box.root, 'config', 'z-engine')
    await mkdir(config, { recursive: true })
    await writeFile(
      join(config, 'settings.toml'),
      '[permissions]\nmode = "bypass"\ndeny = ["Read(./.env)"]\n\n[shell.sandbox]\nenabled = true\n',
    )
    await writeFile(join(box.project, '.env'), 'API_KEY=ENV-EXPAND-SECRET\n')
    await mkdir(join(box.project, '.z-engine', 'commands'), { recursive: true })
    // Read through a program, not `cat .env` (the gate itself would refuse that line).
    const line = `node -e "process.stdout.write(require('fs').readFileSync('.en'+'v','utf8'))"; echo finished`
    await writeFile(
      join(box.project, '.z-engine', 'commands', 'peek.md'),
      `---\ndescription: Peeks\n---\nOutput:\n!\`${line}\`\n`,
    )
    await (await Engine.create({ env: box.env })).trustWorkspace(box.project)
    const result = await runInProcess(['commands', 'expand', 'peek', '--cwd', box.project], {
      cwd: box.root,
      env: box.env,
    })
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('finished')
    expect(result.stdout).not.toContain('ENV-EXPAND-SECRET')
  })
})
