/**
 * The Codex CLI (`@openai/codex`, its native binary) fixes a bug through the gateway over the scripted
 * upstream: the model answers with Codex's freeform `apply_patch` custom tool, Codex applies the patch
 * with its own tool and sends the `custom_tool_call_output` back. Codex 0.171 sends `store: false` to
 * every provider but OpenAI's own, so on a Responses upstream it runs the pass-through path; on a Chat
 * upstream it runs the executor (apply_patch becomes a function taking `input`, its call comes back as
 * a custom tool call). The stored path for the same items is client-tools.test.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { RecordedRequest, ServerStep } from '@z-engine/engine/testing'
import { afterEach, describe, expect, it } from 'vitest'
import { customCallStep } from './custom-call-step.js'
import { type Stack, startStack, text } from './harness.js'
import { BUG, binOf, buggyRepo, gitDiff, PROMPT, runAgent } from './real-agents.js'

const PATCH =
  '*** Begin Patch\n*** Update File: add.js\n@@\n export function add(a, b) {\n-  return a - b\n+  return a + b\n }\n*** End Patch\n'

const cleanups: Array<() => void> = []
let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function itemsOf(request: RecordedRequest): Array<Record<string, unknown>> {
  return Array.isArray(request.body.input) ? (request.body.input as Array<Record<string, unknown>>) : []
}

/** The scripted model: patch with apply_patch, then say it is done; side requests get a short answer. */
function script(request: RecordedRequest, index: number): ServerStep {
  const tools = Array.isArray(request.body.tools) ? request.body.tools : []
  if (tools.length === 0) return text('ok')
  if (request.format === 'openai-chat') {
    const messages = request.body.messages as Array<{ role: string }>
    if (!messages.some((message) => message.role === 'tool'))
      return {
        blocks: [{ type: 'tool_use', id: 'call_patch', name: 'apply_patch', input: { input: PATCH } }],
      }
    return text('Fixed: add now adds.')
  }
  const answered = itemsOf(request).some((item) => item.type === 'custom_tool_call_output')
  if (!answered)
    return customCallStep(request, { callId: 'call_patch', name: 'apply_patch', input: PATCH }, index + 1)
  return text('Fixed: add now adds.')
}

/** Codex fixes the bug through a gateway over an upstream speaking `upstreamApi`; its model requests. */
async function codexFixes(upstreamApi: 'responses' | 'chat'): Promise<RecordedRequest[]> {
  stack = await startStack(script, { config: { upstreamApi } })
  const repo = buggyRepo()
  const home = mkdtempSync(join(tmpdir(), 'gateway-codex-home-'))
  cleanups.push(() => rmSync(repo, { recursive: true, force: true }))
  cleanups.push(() => rmSync(home, { recursive: true, force: true }))
  writeFileSync(
    join(home, 'config.toml'),
    [
      // A model Codex knows: it gets the freeform apply_patch, tool_search and verbosity.
      'model = "gpt-5.5"',
      // A Chat model cannot be offered a hosted web search (the gateway refuses it by name).
      ...(upstreamApi === 'chat' ? ['web_search = "disabled"'] : []),
      'model_provider = "gw"',
      '',
      '[model_providers.gw]',
      'name = "gw"',
      `base_url = "${stack.gateway.url}/v1"`,
      'wire_api = "responses"',
      'env_key = "GW_KEY"',
      'request_max_retries = 0',
      'stream_max_retries = 0',
      '',
    ].join('\n'),
  )
  const run = await runAgent(
    binOf('@openai/codex', 'codex'),
    ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', '--json', PROMPT],
    {
      cwd: repo,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, CODEX_HOME: home, GW_KEY: 'test-key' },
      timeoutMs: 90_000,
    },
  )
  const events = run.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { type: string; item?: Record<string, unknown> })
  expect(run.code, `${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`).toBe(0)
  expect(events.at(-1)?.type).toBe('turn.completed')
  expect(events.some((event) => event.item?.type === 'file_change')).toBe(true)
  expect(events.some((event) => event.item?.text === 'Fixed: add now adds.')).toBe(true)
  expect(readFileSync(join(repo, 'add.js'), 'utf8')).toBe(BUG.replace('a - b', 'a + b'))
  expect(gitDiff(repo)).toContain('+  return a + b')
  return stack.upstream.requests.filter((request) => Array.isArray(request.body.tools))
}

describe('the Codex CLI through the gateway', () => {
  it('fixes a bug with its apply_patch custom tool on a Responses upstream (store: false, pass-through)', async () => {
    const requests = await codexFixes('responses')
    // Codex declared its freeform apply_patch and got its call; the second round carries its output.
    expect(requests[0]?.body.tools).toContainEqual(
      expect.objectContaining({ type: 'custom', name: 'apply_patch' }),
    )
    const answer = itemsOf(requests.at(-1) as RecordedRequest)
    expect(answer.find((item) => item.type === 'custom_tool_call')).toMatchObject({
      call_id: 'call_patch',
      input: PATCH,
    })
    expect(answer.find((item) => item.type === 'custom_tool_call_output')).toMatchObject({
      call_id: 'call_patch',
    })
    expect(requests.every((request) => request.body.store === false)).toBe(true)
    // Pass-through: the gateway's stateful path would have replaced the upstream's item ids with its own.
    expect(answer.find((item) => item.type === 'custom_tool_call')?.id).not.toMatch(/^ctc_[0-9a-f]{48}$/)
  }, 120_000)

  it('fixes a bug with apply_patch on a Chat upstream (the executor maps it to a function and back)', async () => {
    const requests = await codexFixes('chat')
    const functions = (
      (requests[0] as RecordedRequest).body.tools as Array<{ function: Record<string, unknown> }>
    ).map((tool) => tool.function)
    expect(functions).toContainEqual(
      expect.objectContaining({
        name: 'apply_patch',
        parameters: expect.objectContaining({ required: ['input'] }),
      }),
    )
    const messages = requests.at(-1)?.body.messages as Array<Record<string, unknown>>
    expect(messages.find((message) => message.role === 'assistant')).toMatchObject({
      tool_calls: [
        { id: 'call_patch', function: { name: 'apply_patch', arguments: JSON.stringify({ input: PATCH }) } },
      ],
    })
    expect(messages.find((message) => message.role === 'tool')).toMatchObject({ tool_call_id: 'call_patch' })
  }, 120_000)
})
