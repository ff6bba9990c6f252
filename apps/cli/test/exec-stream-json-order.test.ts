/**
 * stream-json keeps a turn's lines together: its checkpoint line (taken alongside the first request,
 * and able to land after a read-only turn has ended) comes before the turn's `final`, and nothing of
 * the turn follows it, as Claude Code's `result` ends a turn.
 */
import { describe, expect, it } from 'vitest'
import { runInProcess, sandbox } from './helpers.js'

describe('exec stream-json line order', () => {
  it('puts every line of a read-only turn, its checkpoint too, before its final line', async () => {
    const box = await sandbox()
    const script = await box.script('answer.jsonl', [
      { blocks: [{ type: 'text', text: 'Nothing to change.' }] },
      { blocks: [{ type: 'text', text: 'Still nothing.' }] },
    ])
    const input = ['first look', 'second look']
      .map((text) => JSON.stringify({ type: 'user', message: { role: 'user', content: text } }))
      .join('\n')
    const { code, stdout } = await runInProcess(
      [
        'exec',
        '--model',
        `scripted:${script}`,
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
      ],
      { cwd: box.project, env: box.env, stdin: `${input}\n` },
    )
    expect(code).toBe(0)
    const types = stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { type: string }).type)
      .filter((type) => type !== 'text')
    const finals = types.flatMap((type, index) => (type === 'final' ? [index] : []))
    expect(finals).toHaveLength(2)
    const checkpoints = types.flatMap((type, index) => (type === 'checkpoint' ? [index] : []))
    expect(checkpoints).toHaveLength(2)
    // One checkpoint per turn, each before that turn's final.
    expect(checkpoints[0]!).toBeLessThan(finals[0]!)
    expect(checkpoints[1]!).toBeGreaterThan(finals[0]!)
    expect(checkpoints[1]!).toBeLessThan(finals[1]!)
    expect(types.slice(finals[1]! + 1)).toEqual(['run_end'])
  })
})
