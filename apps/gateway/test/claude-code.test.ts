/**
 * Claude Code (`@anthropic-ai/claude-code`, its native binary) fixes a bug through the gateway's
 * Anthropic Messages API over the scripted Responses upstream: the model reads add.js and edits it
 * with Claude Code's own Read and Edit tools (function calls upstream, `tool_use` blocks to Claude
 * Code); the Messages API is stateless, so nothing is stored.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RecordedRequest, ServerStep } from '@z-engine/engine/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { type Stack, startStack, text } from './harness.js'
import { BUG, binOf, buggyRepo, gitDiff, PROMPT, runAgent } from './real-agents.js'

const cleanups: Array<() => void> = []
let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
  for (const cleanup of cleanups.splice(0)) cleanup()
})

/** The scripted model: Read, then Edit, then done; side requests (titles, checks) get a short answer. */
function scriptFor(file: () => string) {
  return (request: RecordedRequest): ServerStep => {
    const tools = Array.isArray(request.body.tools) ? request.body.tools : []
    if (tools.length === 0) return text('ok')
    const input = Array.isArray(request.body.input) ? (request.body.input as Array<{ type?: string }>) : []
    const answered = input.filter((item) => item.type === 'function_call_output').length
    if (answered === 0) return { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: file() } }] }
    if (answered === 1)
      return {
        blocks: [
          {
            type: 'tool_use',
            name: 'Edit',
            input: { file_path: file(), old_string: 'a - b', new_string: 'a + b' },
          },
        ],
      }
    return text('Fixed: add now adds.')
  }
}

describe('Claude Code through the gateway', () => {
  it('fixes a bug with its Read and Edit tools over the Messages API', async () => {
    const repo = buggyRepo()
    const config = mkdtempSync(join(tmpdir(), 'gateway-claude-config-'))
    cleanups.push(() => rmSync(repo, { recursive: true, force: true }))
    cleanups.push(() => rmSync(config, { recursive: true, force: true }))
    stack = await startStack(scriptFor(() => join(repo, 'add.js')))
    const run = await runAgent(
      binOf('@anthropic-ai/claude-code', 'claude'),
      [
        '-p',
        PROMPT,
        '--output-format',
        'json',
        '--permission-mode',
        'acceptEdits',
        '--model',
        'claude-sonnet-4-5',
      ],
      {
        cwd: repo,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: config,
          CLAUDE_CONFIG_DIR: config,
          ANTHROPIC_BASE_URL: stack.gateway.url,
          ANTHROPIC_API_KEY: 'test-key',
          DISABLE_TELEMETRY: '1',
          DISABLE_AUTOUPDATER: '1',
          DISABLE_ERROR_REPORTING: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        },
        timeoutMs: 90_000,
      },
    )
    expect(run.code, `${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ is_error: false, result: 'Fixed: add now adds.' })
    expect(readFileSync(join(repo, 'add.js'), 'utf8')).toBe(BUG.replace('a - b', 'a + b'))
    expect(gitDiff(repo)).toContain('+  return a + b')
    const model = stack.upstream.requests.filter((request) => Array.isArray(request.body.tools))
    expect(model).toHaveLength(3)
    // Claude Code's own tools reached the model as functions.
    const names = ((model[0] as RecordedRequest).body.tools as Array<{ name: string }>).map(
      (tool) => tool.name,
    )
    expect(names).toEqual(expect.arrayContaining(['Read', 'Edit', 'Bash']))
  }, 120_000)
})
