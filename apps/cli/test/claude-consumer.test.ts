/**
 * Issue 35 "a small consumer written against Claude Code's stream-json runs unchanged against
 * z-engine": `fixtures/claude-consumer.mjs` waits for the `result` line, reads `total_cost_usd`,
 * `num_turns` and `session_id`, and resumes with `-r`. It runs against the built `z-engine` and,
 * where it runs, the real Claude Code, both on the same scripted Anthropic server.
 */
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type RecordedRequest, type ServerStep, startScriptedServer } from '@z-engine/engine/testing'
import { describe, expect, it } from 'vitest'
import { CLAUDE_BIN, claudeEnv, claudeRuns, runProgram } from './claude-code.js'
import { BIN, HAVE_DIST, sandbox } from './helpers.js'

const CONSUMER = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/claude-consumer.mjs')

/** Two turns, one answer each (side requests without tools get a short answer). */
function twoAnswers(): (request: RecordedRequest) => ServerStep {
  const answers = ['The project holds a README.', 'It is a demo.']
  let next = 0
  return (request) => {
    const tools = request.body.tools
    if (!Array.isArray(tools) || tools.length === 0) return { blocks: [{ type: 'text', text: 'ok' }] }
    return {
      blocks: [{ type: 'text', text: answers[next++] ?? 'Done.' }],
      usage: { inputTokens: 2_000, outputTokens: 50 },
    }
  }
}

interface Summary {
  exit: number
  types: string[]
  subtype: string
  is_error: boolean
  total_cost_usd: number
  num_turns: number
  session_id: string
  result: string
}

async function consume(command: readonly string[], env: NodeJS.ProcessEnv, cwd: string) {
  const run = await runProgram(
    process.execPath,
    [CONSUMER, 'What is in this project?', 'And what is it for?', '--', ...command],
    { cwd, env },
  )
  expect(run.code, run.stderr).toBe(0)
  return JSON.parse(run.stdout) as { first: Summary; second: Summary }
}

function expectConsumed(read: { first: Summary; second: Summary }): void {
  expect(read.first).toMatchObject({
    exit: 0,
    subtype: 'success',
    is_error: false,
    num_turns: 1,
    result: 'The project holds a README.',
  })
  expect(read.first.types).toEqual(expect.arrayContaining(['assistant', 'result', 'system']))
  expect(read.first.total_cost_usd).toBeGreaterThan(0)
  expect(read.first.session_id).toMatch(/^[0-9a-f-]{36}$/)
  // Resumed with -r: the same conversation, the second answer.
  expect(read.second).toMatchObject({ exit: 0, subtype: 'success', result: 'It is a demo.' })
  expect(read.second.session_id).toBe(read.first.session_id)
}

describe('a consumer written against Claude Code stream-json', () => {
  it.runIf(HAVE_DIST)(
    'runs unchanged against z-engine (built binary)',
    async () => {
      const box = await sandbox()
      const server = await startScriptedServer(twoAnswers())
      try {
        const read = await consume(
          [process.execPath, BIN, '--model', 'claude-sonnet-4-5'],
          { ...box.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' },
          box.project,
        )
        expectConsumed(read)
        // Claude Sonnet 4.5 at $3/M input and $15/M output, for one request of 2,000 in and 50 out.
        expect(read.first.total_cost_usd).toBeCloseTo((2_000 * 3 + 50 * 15) / 1e6, 9)
        // The resumed turn sent the first exchange back.
        const last = server.requests.at(-1)?.body.messages as Array<{ role: string }>
        expect(last.map((message) => message.role)).toEqual(['user', 'assistant', 'user'])
      } finally {
        await server.close()
      }
    },
    120_000,
  )

  it.runIf(claudeRuns())(
    'reads the real Claude Code the same way (the consumer is written for it)',
    async () => {
      const box = await sandbox()
      const server = await startScriptedServer(twoAnswers())
      try {
        const read = await consume(
          [CLAUDE_BIN, '--model', 'claude-sonnet-4-5'],
          await claudeEnv(box.root, server.url),
          box.project,
        )
        expectConsumed(read)
      } finally {
        await server.close()
      }
    },
    120_000,
  )
})
