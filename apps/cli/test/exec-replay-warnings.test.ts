/**
 * Issue 19 (minor): a resumed session whose log has unreadable lines says so, once, as a warning
 * line in text mode and a `warning` entry in JSON — not silently, and not as raw JSON.
 */
import { appendFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess, sandbox } from './helpers.js'

describe('exec --resume over a damaged log', () => {
  it('warns which lines were skipped and carries on', async () => {
    const box = await sandbox()
    const script = await box.script('ok.jsonl', [{ blocks: [{ type: 'text', text: 'ok.' }] }])
    const run = (argv: string[]) => runInProcess(argv, { cwd: box.project, env: box.env })
    const first = await run(['exec', '--model', `scripted:${script}`, '--output-format', 'json', 'one'])
    expect(first.code, first.stderr).toBe(0)
    const id = (JSON.parse(first.stdout) as { session_id: string }).session_id
    const log = join(box.env.XDG_DATA_HOME as string, 'z-engine', 'sessions', id, 'log.jsonl')
    await appendFile(log, '{"type":"bogus","id":"r_x","at":"2026-01-01T00:00:00.000Z"}\n')

    const text = await run(['exec', '--model', `scripted:${script}`, '--resume', id, 'two'])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toContain('ok.')
    const warnings = text.stderr.split('\n').filter((line) => line.includes('could not be read'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('log.jsonl at byte')
    expect(warnings[0]).toContain('unknown record type "bogus"')
    expect(text.stderr).not.toContain('{"type"')

    const json = await run([
      'exec',
      '--model',
      `scripted:${script}`,
      '--output-format',
      'json',
      '--resume',
      id,
      'three',
    ])
    const result = JSON.parse(json.stdout) as { warnings: string[] }
    expect(result.warnings.filter((warning) => warning.includes('could not be read'))).toHaveLength(1)
  }, 120_000)
})
