/**
 * Headless Verify per check (issue 39): `Verify(test)` allows the test; the build asks, which a
 * headless run denies, so the test still runs and the result says the build did not.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess, sandbox } from './helpers.js'

describe('exec: Verify asks per check', () => {
  it('runs the check a Verify rule allows and leaves out the one that would ask', async () => {
    const box = await sandbox()
    const config = join(box.root, 'config', 'z-engine')
    await mkdir(config, { recursive: true })
    await writeFile(join(config, 'settings.toml'), '[permissions]\nallow = ["Verify(test)"]\n')
    await writeFile(
      join(box.project, 'package.json'),
      JSON.stringify({
        name: 'fixture',
        type: 'module',
        scripts: { test: 'node --test', build: 'node -e 0' },
      }),
    )
    await writeFile(
      join(box.project, 'math.test.js'),
      "import { test } from 'node:test'\nimport assert from 'node:assert'\ntest('adds', () => assert.equal(2 + 3, 5))\n",
    )
    const script = await box.script('verify.jsonl', [
      { blocks: [{ type: 'tool_use', name: 'Verify', input: { action: 'run' } }] },
      { blocks: [{ type: 'text', text: 'Checked.' }] },
    ])
    const run = await runInProcess(
      ['exec', '--model', `scripted:${script}`, '--output-format', 'stream-json', 'run the checks'],
      { cwd: box.project, env: box.env },
    )
    expect(run.code, run.stderr).toBe(0)
    const results = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => line.type === 'tool_result')
    expect(results).toHaveLength(1)
    expect(results[0]).toMatchObject({ name: 'Verify', is_error: false })
    const text = JSON.stringify(results[0])
    expect(text).toContain('test: passed')
    expect(text).toContain('Not run: build (npm run build)')
  })
})
