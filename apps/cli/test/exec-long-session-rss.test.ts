/**
 * Issue 40: a long `exec` session stays small. The CLI keeps V8's young generation at its initial
 * size in a headless run (`v8-flags.ts`): without that, a 100-round session grew it to its ceiling
 * and peaked near 145 MB, though what it keeps (the history of 99 file reads) is small.
 * The peak is the process's own (`process.resourceUsage().maxRSS`, written by a preload at exit).
 * The repository map is off: its first build in a project parses in a thread of its own, a cost of
 * the first session there, not of a long one.
 */
import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { startScriptedServer } from '@z-engine/engine/testing'
import { describe, expect, it } from 'vitest'
import { BIN, HAVE_DIST, sandbox } from './helpers.js'

const run = promisify(execFile)
const ROUNDS = 100
const PRELOAD = `import { writeFileSync } from 'node:fs'
process.on('exit', () => writeFileSync(process.env.Z_PEAK_FILE, String(process.resourceUsage().maxRSS)))
`

describe.runIf(HAVE_DIST)('a long exec session (needs pnpm build)', () => {
  it(`peaks under 120 MB over ${ROUNDS} rounds of file reads`, async () => {
    const box = await sandbox()
    await mkdir(join(box.root, 'config', 'z-engine'), { recursive: true })
    await writeFile(join(box.root, 'config', 'z-engine', 'settings.toml'), '[context]\nrepo_map = false\n')
    // Files of a real project's size to read, one a round: 20 KB of code each.
    const line = 'export function step(value: number): number { return value * 2 + 1 } // padding\n'
    for (let index = 0; index < ROUNDS - 1; index++)
      await writeFile(join(box.project, `file${index}.ts`), line.repeat(250))
    const server = await startScriptedServer((request) => {
      const body = request.body as { tools?: unknown[]; messages?: Array<{ role: string }> }
      if (!Array.isArray(body.tools) || body.tools.length === 0)
        return { blocks: [{ type: 'text', text: 'ok' }] }
      const round = (body.messages ?? []).filter((message) => message.role === 'assistant').length
      return round < ROUNDS - 1
        ? {
            blocks: [
              { type: 'tool_use', name: 'Read', input: { file_path: join(box.project, `file${round}.ts`) } },
            ],
          }
        : { blocks: [{ type: 'text', text: 'read them all' }] }
    })
    const peakFile = join(box.root, 'peak')
    await writeFile(join(box.root, 'preload.mjs'), PRELOAD)
    try {
      const exec = await run(
        process.execPath,
        [
          '--import',
          join(box.root, 'preload.mjs'),
          BIN,
          'exec',
          '--model',
          'anthropic/claude-sonnet-4-5',
          '--output-format',
          'json',
          'read every file',
        ],
        {
          cwd: box.project,
          env: {
            ...box.env,
            Z_PEAK_FILE: peakFile,
            ANTHROPIC_BASE_URL: server.url,
            ANTHROPIC_API_KEY: 'test',
          },
          maxBuffer: 64 * 1024 * 1024,
        },
      )
      expect(JSON.parse(exec.stdout)).toMatchObject({ outcome: 'done', result: 'read them all' })
    } finally {
      await server.close()
    }
    const peakMb = Number(readFileSync(peakFile, 'utf8')) / 1024
    expect(peakMb).toBeLessThan(120)
  })
})
