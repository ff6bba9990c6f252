/**
 * Issue 35: `z-engine -p` is a drop-in for `claude -p`. The real Claude Code (the pinned dev
 * dependency) and z-engine run the same command line against the same scripted Anthropic server on
 * the same fix-a-bug task; both fix it, and z-engine's lines carry every key of Claude Code's that
 * the Claude Agent SDK's message types document, with the same JSON type. Where the live binary
 * cannot run, Claude Code's recorded output (test/golden/claude-code/) stands in, and the test says
 * so loudly. `RECORD_CLAUDE_FIXTURES=1` rewrites the recordings from a live run;
 * `Z_ENGINE_CLAUDE_FIXTURES=1` uses them even where the binary runs.
 */
import { execFileSync } from 'node:child_process'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type RecordedRequest, type ServerStep, startScriptedServer } from '@z-engine/engine/testing'
import { beforeAll, describe, expect, it } from 'vitest'
import { CLAUDE_BIN, CLAUDE_VERSION, claudeEnv, claudeRuns, runProgram } from './claude-code.js'
import { runInProcess, sandbox } from './helpers.js'

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'golden/claude-code')
const PROMPT = 'The add function in math.js is wrong. Fix it.'

/**
 * The keys the Claude Agent SDK 0.3.337 (`sdk.d.ts`) documents on `SDKSystemMessage` (init) and
 * on `SDKResultSuccess | SDKResultError`: Claude Code's keys outside these are its own business.
 */
const SDK_INIT_KEYS = [
  'type',
  'subtype',
  'agents',
  'apiKeySource',
  'betas',
  'claude_code_version',
  'cwd',
  'tools',
  'mcp_servers',
  'model',
  'permissionMode',
  'slash_commands',
  'terminal_slash_commands',
  'output_style',
  'skills',
  'plugins',
  'plugin_errors',
  'fast_mode_state',
  'fast_mode_disabled_reason',
  'effort',
  'view_mode',
  'capabilities',
  'uuid',
  'session_id',
]
const SDK_RESULT_KEYS = [
  'api_error_status',
  'credential_expires_at',
  'deferred_tool_use',
  'duration_api_ms',
  'duration_ms',
  'errors',
  'fast_mode_disabled_reason',
  'fast_mode_state',
  'first_content_frame_ms',
  'first_stream_post_ack_ms',
  'first_stream_post_ms',
  'first_stream_post_queue_wait_ms',
  'first_stream_post_queued_behind',
  'first_stream_post_wall_ms',
  'first_text_post_ms',
  'first_text_post_queue_wait_ms',
  'first_text_post_queued_behind',
  'first_text_post_wall_ms',
  'invalid_config_file',
  'is_error',
  'local_command',
  'modelUsage',
  'num_turns',
  'origin',
  'permission_denials',
  'queued_turn_count',
  'request_sent_wall_ms',
  'result',
  'result_index',
  'resume_reason',
  'session_id',
  'startup_failure_reason',
  'stop_reason',
  'structured_output',
  'subtype',
  'terminal_reason',
  'time_origin_ms',
  'time_to_request_from_spawn_ms',
  'time_to_request_ms',
  'total_cost_usd',
  'ttft_ms',
  'ttft_stream_ms',
  'type',
  'usage',
  'user_message_uuid',
  'user_message_uuids',
  'uuid',
  'warm_spare_claimed',
]
/** `SDKAssistantMessage` / `SDKUserMessage`'s required keys, and the Anthropic message's. */
const SDK_MESSAGE_KEYS = ['type', 'message', 'parent_tool_use_id', 'uuid', 'session_id']
const ASSISTANT_MESSAGE_KEYS = [
  'id',
  'type',
  'role',
  'model',
  'content',
  'stop_reason',
  'stop_sequence',
  'usage',
]
const USAGE_KEYS = ['input_tokens', 'output_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens']
const MODEL_USAGE_KEYS = [
  'inputTokens',
  'outputTokens',
  'cacheReadInputTokens',
  'cacheCreationInputTokens',
  'webSearchRequests',
  'costUSD',
  'contextWindow',
]
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

type Line = Record<string, unknown>

/** Keys the SDK types as `… | null`. Claude Code streams each block before its stop reason is known. */
const NULLABLE = new Set(['stop_reason', 'stop_sequence', 'api_error_status'])

function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
}

/** For each of `keys` that Claude Code's object has: present in ours, with the same JSON type. */
function sameTypes(theirs: Line, ours: Line, keys: readonly string[]): Record<string, string> {
  const report: Record<string, string> = {}
  for (const key of keys) {
    if (!(key in theirs)) continue
    const want = jsonType(theirs[key])
    const got = key in ours ? jsonType(ours[key]) : 'missing'
    // A nullable field (`stop_reason: string | null`) may be null on one side: both are its type.
    if (got === want || (NULLABLE.has(key) && got !== 'missing' && (got === 'null' || want === 'null')))
      continue
    report[key] = `theirs ${want}, ours ${got}`
  }
  return report
}

/** The fix-a-bug task: Read the file, Edit it, answer. Only requests that offer tools take a step. */
function fixScript(file: string): (request: RecordedRequest) => ServerStep {
  const steps: ServerStep[] = [
    {
      blocks: [
        { type: 'text', text: 'Let me read it.' },
        { type: 'tool_use', name: 'Read', input: { file_path: file } },
      ],
      usage: { inputTokens: 1_200, outputTokens: 30 },
    },
    {
      blocks: [
        {
          type: 'tool_use',
          name: 'Edit',
          input: { file_path: file, old_string: 'a - b', new_string: 'a + b' },
        },
      ],
      usage: { inputTokens: 1_400, outputTokens: 40 },
    },
    {
      blocks: [{ type: 'text', text: 'Fixed: add now adds.' }],
      usage: { inputTokens: 1_500, outputTokens: 10 },
    },
  ]
  let next = 0
  return (request) => {
    const tools = request.body.tools
    // Side requests (titles, summaries) get a short answer and do not use up the task's steps.
    if (!Array.isArray(tools) || tools.length === 0) return { blocks: [{ type: 'text', text: 'ok' }] }
    return steps[next++] ?? { blocks: [{ type: 'text', text: 'Done.' }] }
  }
}

interface Run {
  lines: Line[]
  json: Line | Line[]
  fixed: boolean
  code: number | null
  stderr: string
}

const ARGS = ['--model', 'claude-sonnet-4-5', '--dangerously-skip-permissions']

async function runTask(
  program: 'claude' | 'z-engine',
  format: 'stream-json' | 'json',
): Promise<{ stdout: string; fixed: boolean; code: number | null; stderr: string }> {
  const box = await sandbox()
  const file = join(box.project, 'math.js')
  await writeFile(file, 'export function add(a, b) {\n  return a - b\n}\n')
  execFileSync('git', ['add', '.'], { cwd: box.project })
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init'], {
    cwd: box.project,
  })
  const server = await startScriptedServer(fixScript(file))
  const argv = ['-p', PROMPT, '--output-format', format, '--verbose', ...ARGS]
  try {
    const run =
      program === 'claude'
        ? await runProgram(CLAUDE_BIN, argv, { cwd: box.project, env: await claudeEnv(box.root, server.url) })
        : await runInProcess(argv, {
            cwd: box.project,
            env: { ...box.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' },
          })
    const fixed = (await readFile(file, 'utf8')).includes('return a + b')
    return { stdout: run.stdout, fixed, code: run.code, stderr: run.stderr }
  } finally {
    await server.close()
  }
}

// `Z_ENGINE_CLAUDE_FIXTURES=1` forces the recorded fallback (to check it still holds).
const LIVE = process.env.Z_ENGINE_CLAUDE_FIXTURES !== '1' && claudeRuns()

async function claudeRun(): Promise<Run> {
  if (!LIVE) {
    console.warn(
      `\n!!! Claude Code ${CLAUDE_VERSION} cannot run here (${CLAUDE_BIN}); comparing with its RECORDED output in test/golden/claude-code/, not a live run !!!\n`,
    )
    const stream = await readFile(join(FIXTURES, 'stream-json.jsonl'), 'utf8')
    const json = await readFile(join(FIXTURES, 'json-verbose.txt'), 'utf8')
    return { lines: parseLines(stream), json: JSON.parse(json), fixed: true, code: 0, stderr: '' }
  }
  const stream = await runTask('claude', 'stream-json')
  const json = await runTask('claude', 'json')
  if (process.env.RECORD_CLAUDE_FIXTURES === '1') {
    await mkdir(FIXTURES, { recursive: true })
    await writeFile(join(FIXTURES, 'stream-json.jsonl'), stream.stdout)
    await writeFile(join(FIXTURES, 'json-verbose.txt'), json.stdout)
  }
  expect(json.fixed).toBe(true)
  return {
    lines: parseLines(stream.stdout),
    json: JSON.parse(json.stdout),
    fixed: stream.fixed,
    code: stream.code,
    stderr: stream.stderr,
  }
}

async function oursRun(): Promise<Run> {
  const stream = await runTask('z-engine', 'stream-json')
  const json = await runTask('z-engine', 'json')
  expect(json.fixed, json.stderr).toBe(true)
  return {
    lines: parseLines(stream.stdout),
    json: JSON.parse(json.stdout),
    fixed: stream.fixed,
    code: stream.code,
    stderr: stream.stderr,
  }
}

function parseLines(text: string): Line[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line)
}

const byType = (lines: Line[], type: string) => lines.filter((line) => line.type === type)

describe(`z-engine -p beside Claude Code ${CLAUDE_VERSION}'s own (${LIVE ? 'live binary' : 'RECORDED fixtures'})`, () => {
  let theirs: Run
  let ours: Run
  beforeAll(async () => {
    theirs = await claudeRun()
    ours = await oursRun()
  }, 240_000)

  it('both fix the bug and exit 0', () => {
    expect(theirs.fixed).toBe(true)
    expect(theirs.code, theirs.stderr).toBe(0)
    expect(ours.fixed).toBe(true)
    expect(ours.code, ours.stderr).toBe(0)
  })

  it('stream-json: system/init first, assistant and user lines with tool_use and tool_result, result last', () => {
    for (const run of [theirs, ours]) {
      expect(run.lines[0]).toMatchObject({ type: 'system', subtype: 'init' })
      expect(run.lines.at(-1)).toMatchObject({ type: 'result', subtype: 'success', is_error: false })
      const types = new Set(run.lines.map((line) => line.type))
      expect([...types].sort()).toEqual(['assistant', 'result', 'system', 'user'])
      const blocks = (type: string) =>
        byType(run.lines, type).flatMap((line) => (line.message as { content: Line[] }).content)
      expect(blocks('assistant').map((block) => block.type)).toEqual(
        expect.arrayContaining(['text', 'tool_use']),
      )
      expect(blocks('user').map((block) => block.type)).toEqual(['tool_result', 'tool_result'])
      expect(run.lines.at(-1)).toMatchObject({ result: 'Fixed: add now adds.', num_turns: 3 })
    }
  })

  it("init carries every key of Claude Code's that the SDK documents, with the same JSON type", () => {
    const [theirInit, ourInit] = [theirs.lines[0] as Line, ours.lines[0] as Line]
    expect(sameTypes(theirInit, ourInit, SDK_INIT_KEYS)).toEqual({})
    expect(ourInit).toMatchObject({ model: 'claude-sonnet-4-5', permissionMode: 'bypassPermissions' })
    expect(ourInit.tools).toEqual(expect.arrayContaining(['Read', 'Edit', 'Bash']))
    expect(ourInit.session_id).toMatch(UUID)
    expect(ourInit.uuid).toMatch(UUID)
  })

  it("result carries every key of Claude Code's that the SDK documents, with the same JSON type", () => {
    const [theirResult, ourResult] = [theirs.lines.at(-1) as Line, ours.lines.at(-1) as Line]
    expect(sameTypes(theirResult, ourResult, SDK_RESULT_KEYS)).toEqual({})
    expect(sameTypes(theirResult.usage as Line, ourResult.usage as Line, USAGE_KEYS)).toEqual({})
    const model = (result: Line) => (result.modelUsage as Record<string, Line>)['claude-sonnet-4-5'] as Line
    expect(sameTypes(model(theirResult), model(ourResult), MODEL_USAGE_KEYS)).toEqual({})
    expect(ourResult.uuid).toMatch(UUID)
    expect(ourResult.session_id).toBe(ours.lines[0]?.session_id)
    expect(ourResult).toMatchObject({
      terminal_reason: 'completed',
      stop_reason: 'end_turn',
      is_error: false,
    })
    expect(ourResult.usage).toMatchObject({ input_tokens: 4_100, output_tokens: 80 })
  })

  it('assistant and user lines carry the keys the SDK requires, with the same JSON types', () => {
    for (const type of ['assistant', 'user']) {
      const [theirLine, ourLine] = [
        byType(theirs.lines, type)[0] as Line,
        byType(ours.lines, type)[0] as Line,
      ]
      expect(sameTypes(theirLine, ourLine, SDK_MESSAGE_KEYS)).toEqual({})
      expect(ourLine.session_id).toBe(ours.lines[0]?.session_id)
    }
    const message = (run: Run) => byType(run.lines, 'assistant')[0]?.message as Line
    expect(sameTypes(message(theirs), message(ours), ASSISTANT_MESSAGE_KEYS)).toEqual({})
    const result = (run: Run) =>
      ((byType(run.lines, 'user')[0] as Line).message as { content: Line[] }).content[0] as Line
    expect(sameTypes(result(theirs), result(ours), ['type', 'tool_use_id', 'content'])).toEqual({})
  })

  it('json with --verbose: the array of every message, the same line types, ending in the result', () => {
    for (const run of [theirs, ours]) {
      expect(Array.isArray(run.json)).toBe(true)
      const messages = run.json as Line[]
      expect(messages[0]).toMatchObject({ type: 'system', subtype: 'init' })
      expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success' })
    }
    const [theirResult, ourResult] = [
      (theirs.json as Line[]).at(-1) as Line,
      (ours.json as Line[]).at(-1) as Line,
    ]
    expect(sameTypes(theirResult, ourResult, SDK_RESULT_KEYS)).toEqual({})
  })
})
