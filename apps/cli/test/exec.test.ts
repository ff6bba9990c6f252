import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { Ajv } from 'ajv'
import { describe, expect, it } from 'vitest'
import { HEADLESS_DENIAL } from '../src/exec/headless-answers.js'
import { STREAM_JSON_TYPES } from '../src/exec/stream-json-types.js'
import { normalize, runInProcess, type Sandbox, sandbox } from './helpers.js'

const schemaPath = resolve(import.meta.dirname, '../schema/stream-json.schema.json')

/** Thinking, text, an auto-allowed read-only Bash call, a Write that asks (denied headless), then an answer. */
const DEMO = [
  {
    blocks: [
      { type: 'thinking', thinking: 'Check the tree first.' },
      { type: 'text', text: 'Looking at the project.' },
      { type: 'tool_use', name: 'Bash', input: { command: 'ls' } },
      { type: 'tool_use', name: 'Write', input: { file_path: 'notes.txt', content: 'hi\n' } },
    ],
    usage: { inputTokens: 900, outputTokens: 30 },
  },
  {
    blocks: [{ type: 'text', text: 'The project has a README. I could not write notes.txt.' }],
    usage: { inputTokens: 1000, outputTokens: 20 },
  },
]

async function demo(format: string): Promise<{ box: Sandbox; code: number; stdout: string; stderr: string }> {
  const box = await sandbox()
  const script = await box.script('demo.jsonl', DEMO)
  const result = await runInProcess(
    ['exec', '--model', `scripted:${script}`, '--output-format', format, 'look around'],
    {
      cwd: box.project,
      env: box.env,
    },
  )
  return { box, ...result }
}

/** Stream-json with consecutive text (and reasoning) pieces merged: how the deltas are cut depends on timing. */
function mergedLines(stdout: string): Array<Record<string, unknown>> {
  const lines: Array<Record<string, unknown>> = []
  for (const line of stdout.trim().split('\n')) {
    const value = JSON.parse(line) as Record<string, unknown>
    const last = lines.at(-1)
    if (last && (value.type === 'text' || value.type === 'reasoning') && last.type === value.type)
      last.text = `${String(last.text)}${String(value.text)}`
    else lines.push(value)
  }
  return lines
}

describe('exec output formats (golden)', () => {
  it('text: the answer on stdout, tool calls and denials on stderr', async () => {
    const { box, code, stdout, stderr } = await demo('text')
    // The only change the turn tried (Write) was denied: nothing was done, and the exit code says so.
    expect(code).toBe(4)
    expect(stderr).toContain('error: nothing was changed: every change this run tried was denied')
    expect(stdout).toBe('Looking at the project.\n\nThe project has a README. I could not write notes.txt.\n')
    const paths = { home: box.root }
    await expect(normalize(`--- stdout\n${stdout}--- stderr\n${stderr}`, paths)).toMatchFileSnapshot(
      'golden/exec-text.txt',
    )
  })

  it('json: one object with result, session, usage, cost, outcome and the denied calls', async () => {
    const { box, code, stdout } = await demo('json')
    expect(code).toBe(4)
    const result = JSON.parse(stdout) as Record<string, unknown>
    expect(result).toMatchObject({
      outcome: 'done',
      is_error: true,
      result: 'The project has a README. I could not write notes.txt.',
      usage: { input_tokens: 1900, output_tokens: 50 },
      tool_calls: 2,
      permission_denials: [
        {
          tool_name: 'Write',
          tool_use_id: expect.any(String),
          tool_input: { file_path: 'notes.txt', content: 'hi\n' },
          reason: expect.stringContaining('no one could approve it (headless)'),
        },
      ],
      exit_code: 4,
    })
    expect(result.session_id).toMatch(/^[0-9a-f-]{36}$/)
    await expect(normalize(stdout, { home: box.root })).toMatchFileSnapshot('golden/exec-json.txt')
  })

  it('stream-json: every line validates against the shipped schema; approvals fail closed', async () => {
    const { box, code, stdout } = await demo('stream-json')
    expect(code).toBe(4)
    const schema = JSON.parse(await readFile(schemaPath, 'utf8')) as object
    const validate = new Ajv({ strict: true, allErrors: true }).compile(schema)
    const raw = stdout.trim().split('\n')
    for (const line of raw) {
      const ok = validate(JSON.parse(line))
      expect(ok, `${line}\n${JSON.stringify(validate.errors)}`).toBe(true)
    }
    const lines = mergedLines(stdout)
    const types = lines.map((line) => line.type)
    expect(types[0]).toBe('run_start')
    expect(types.at(-1)).toBe('run_end')
    expect(types).toContain('permission_request')
    const decision = lines.find((line) => line.type === 'permission_decision')
    expect(decision).toMatchObject({ decision: 'deny', feedback: HEADLESS_DENIAL })
    const write = lines.find((line) => line.type === 'tool_result' && line.name === 'Write')
    expect(write).toMatchObject({ status: 'denied', is_error: true })
    expect(String(write?.output)).toContain('headless')
    expect(lines.find((line) => line.type === 'final')).toMatchObject({
      is_error: true,
      permission_denials: [{ tool_name: 'Write', tool_input: { file_path: 'notes.txt' } }],
    })
    expect(lines.at(-1)).toMatchObject({ type: 'run_end', exit_code: 4 })
    await expect(readFile(join(box.project, 'notes.txt'), 'utf8')).rejects.toThrow()
    // Every type the mapper can produce is in the schema, and nothing else.
    const titles = (schema as { oneOf: Array<{ title: string }> }).oneOf.map((entry) => entry.title)
    expect(titles).toEqual([...STREAM_JSON_TYPES])
    // The turn's checkpoint is taken alongside the first model request, so its line may come
    // before or after that request's output: check it on its own, keep the golden order-stable.
    // It is a line of the turn, so it comes before the turn's `final` (Claude Code's `result` ends a turn).
    expect(lines.filter((line) => line.type === 'checkpoint')).toHaveLength(1)
    expect(types.indexOf('checkpoint')).toBeLessThan(types.indexOf('final'))
    expect(types.slice(types.indexOf('final') + 1)).toEqual(['run_end'])
    const text = lines
      .filter((line) => line.type !== 'checkpoint')
      .map((line) => JSON.stringify(line))
      .join('\n')
    await expect(`${normalize(text, { home: box.root })}\n`).toMatchFileSnapshot(
      'golden/exec-stream-json.txt',
    )
  })

  it('the schema rejects a line that breaks it (so validation can fail)', async () => {
    const schema = JSON.parse(await readFile(schemaPath, 'utf8')) as object
    const validate = new Ajv({ strict: true }).compile(schema)
    expect(validate({ type: 'text', session_id: 's' })).toBe(false)
    expect(validate({ type: 'text', session_id: 's', text: 'x', extra: 1 })).toBe(false)
    expect(validate({ type: 'nope', session_id: 's' })).toBe(false)
    expect(validate({ type: 'text', session_id: 's', text: 'x' })).toBe(true)
  })
})

describe('exec exit codes', () => {
  it('2 for usage errors, naming the closest flag or value', async () => {
    const box = await sandbox()
    const unknown = await runInProcess(['exec', '--output-fromat', 'json', 'hi'], {
      cwd: box.project,
      env: box.env,
    })
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("Did you mean '--output-format'?")
    const format = await runInProcess(['exec', '--output-format', 'jsno', 'hi'], {
      cwd: box.project,
      env: box.env,
    })
    expect(format.code).toBe(2)
    expect(format.stderr).toContain("'json'")
    const mode = await runInProcess(['exec', '--permission-mode', 'yolo', 'hi'], {
      cwd: box.project,
      env: box.env,
    })
    expect(mode.code).toBe(2)
    const empty = await runInProcess(['exec'], { cwd: box.project, env: box.env, stdin: '' })
    expect(empty.code).toBe(2)
    expect(empty.stderr).toContain('prompt')
    const both = await runInProcess(['exec', '--continue', '--resume', 'x', 'hi'], {
      cwd: box.project,
      env: box.env,
    })
    expect(both.code).toBe(2)
    const turns = await runInProcess(['exec', '--max-turns', '0', 'hi'], { cwd: box.project, env: box.env })
    expect(turns.code).toBe(2)
  })

  it('1 with a message naming the variable when no provider key is set', async () => {
    const box = await sandbox()
    const result = await runInProcess(['exec', '--model', 'anthropic/claude-sonnet-4-5', 'hi'], {
      cwd: box.project,
      env: box.env,
    })
    expect(result.code).toBe(1)
    expect(result.stderr).toContain('ANTHROPIC_API_KEY')
    // First run (no provider set up at all): which variable or base URL to set, once.
    expect(result.stderr).toContain('No model provider is set up yet')
    expect(result.stderr).toContain('export OPENAI_BASE_URL=http://localhost:11434/v1')
    expect(result.stderr.split('No API key').length).toBe(2)
    const other = await runInProcess(['exec', '--model', 'anthropic/claude-sonnet-4-5', 'hi'], {
      cwd: box.project,
      env: { ...box.env, OPENAI_API_KEY: 'sk-test' },
    })
    expect(other.code).toBe(1)
    expect(other.stderr).toContain('ANTHROPIC_API_KEY')
    expect(other.stderr).not.toContain('No model provider is set up yet')
  })

  it('stream-json before a session opens: an error line and run_end, both valid', async () => {
    const box = await sandbox()
    const result = await runInProcess(
      ['exec', '--model', 'openai/gpt-5', '--output-format', 'stream-json', 'hi'],
      { cwd: box.project, env: box.env },
    )
    expect(result.code).toBe(1)
    const schema = JSON.parse(await readFile(schemaPath, 'utf8')) as object
    const validate = new Ajv({ strict: true }).compile(schema)
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    for (const line of lines) expect(validate(line), JSON.stringify(validate.errors)).toBe(true)
    expect(lines).toEqual([
      expect.objectContaining({
        type: 'error',
        session_id: '',
        code: 'modelUnavailable',
        message: expect.stringContaining('OPENAI_API_KEY'),
      }),
      expect.objectContaining({ type: 'run_end', session_id: '', exit_code: 1 }),
    ])
  })

  it('1 when the turn fails, with the error in json output', async () => {
    const box = await sandbox()
    const script = await box.script('fail.jsonl', [
      { error: { kind: 'invalid_request', message: 'bad request body' } },
    ])
    const result = await runInProcess(
      ['exec', '--model', `scripted:${script}`, '--output-format', 'json', 'hi'],
      {
        cwd: box.project,
        env: box.env,
      },
    )
    expect(result.code).toBe(1)
    const output = JSON.parse(result.stdout) as { outcome: string; error?: { message: string } }
    expect(output.outcome).toBe('failed')
    expect(output.error?.message).toContain('bad request body')
  })

  it('3 when --max-turns runs out', async () => {
    const box = await sandbox()
    const loop = Array.from({ length: 5 }, () => ({
      blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'ls' } }],
    }))
    const script = await box.script('loop.jsonl', loop)
    const result = await runInProcess(
      ['exec', '--model', `scripted:${script}`, '--max-turns', '2', '--output-format', 'stream-json', 'loop'],
      { cwd: box.project, env: box.env },
    )
    expect(result.code).toBe(3)
    const final = mergedLines(result.stdout).find((line) => line.type === 'final')
    expect(final).toMatchObject({ outcome: 'budget_exhausted', budget: 'maxTurns' })
  })

  it('5 when the answer is still cut off at the output-token limit after the nudge (completion guard)', async () => {
    const box = await sandbox()
    const cut = { blocks: [{ type: 'text', text: 'Here is the first half of' }], stopReason: 'max_tokens' }
    const script = await box.script('cut.jsonl', [cut, cut])
    const result = await runInProcess(
      ['exec', '--model', `scripted:${script}`, '--output-format', 'json', 'write it all'],
      { cwd: box.project, env: box.env },
    )
    expect(result.code).toBe(5)
    const output = JSON.parse(result.stdout) as {
      outcome: string
      is_error: boolean
      incomplete?: { reason: string; message: string }
    }
    expect(output.outcome).toBe('incomplete')
    expect(output.is_error).toBe(true)
    expect(output.incomplete?.reason).toBe('maxTokens')
    expect(output.incomplete?.message).toContain('output-token limit')
  })

  it('1 for an unknown --resume id, saying so', async () => {
    const box = await sandbox()
    const script = await box.script('ok.jsonl', [{ blocks: [{ type: 'text', text: 'ok' }] }])
    const result = await runInProcess(
      ['exec', '--model', `scripted:${script}`, '--resume', 'no-such-session', 'hi'],
      {
        cwd: box.project,
        env: box.env,
      },
    )
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/no-such-session/)
  })
})

describe('exec input', () => {
  it('appends piped stdin to a prompt given as an argument, as Claude Code does', async () => {
    const box = await sandbox()
    const script = await box.script('ok.jsonl', [{ blocks: [{ type: 'text', text: 'ok' }] }])
    const result = await runInProcess(
      ['exec', '--model', `scripted:${script}`, '--output-format', 'json', 'summarize this log'],
      { cwd: box.project, env: box.env, stdin: 'ERROR disk full\nWARN retrying\n' },
    )
    expect(result.code, result.stderr).toBe(0)
    const sessionId = (JSON.parse(result.stdout) as { session_id: string }).session_id
    const log = await readFile(join(box.root, 'data', 'z-engine', 'sessions', sessionId, 'log.jsonl'), 'utf8')
    expect(log).toContain('summarize this log\\n\\nERROR disk full\\nWARN retrying')
    const alone = await runInProcess(
      ['exec', '--model', `scripted:${script}`, '--output-format', 'json', 'hi'],
      {
        cwd: box.project,
        env: box.env,
        stdin: '',
      },
    )
    const aloneId = (JSON.parse(alone.stdout) as { session_id: string }).session_id
    const aloneLog = await readFile(
      join(box.root, 'data', 'z-engine', 'sessions', aloneId, 'log.jsonl'),
      'utf8',
    )
    expect(aloneLog).toContain('"hi"')
  })

  it('reads the prompt from stdin; stream-json input runs one turn per line until EOF', async () => {
    const box = await sandbox()
    const script = await box.script('ok.jsonl', [{ blocks: [{ type: 'text', text: 'ok' }] }])
    const piped = await runInProcess(['exec', '--model', `scripted:${script}`, '--output-format', 'json'], {
      cwd: box.project,
      env: box.env,
      stdin: 'from stdin\n',
    })
    expect(piped.code).toBe(0)
    const three = await box.script('three.jsonl', [
      { blocks: [{ type: 'text', text: 'one' }] },
      { blocks: [{ type: 'text', text: 'two' }] },
      { blocks: [{ type: 'text', text: 'three' }] },
    ])
    const input = [
      JSON.stringify({ type: 'prompt', text: 'first part' }),
      '',
      JSON.stringify({
        type: 'message',
        role: 'user',
        content: [
          { type: 'text', text: 'second part' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        ],
      }),
      // Claude Code's input message.
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'third part' } }),
    ].join('\n')
    const streamed = await runInProcess(
      [
        'exec',
        '--model',
        `scripted:${three}`,
        '--input-format',
        'stream-json',
        '--output-format',
        'stream-json',
      ],
      { cwd: box.project, env: box.env, stdin: input },
    )
    expect(streamed.code, streamed.stderr).toBe(0)
    const lines = streamed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.filter((line) => line.type === 'final').map((line) => line.result)).toEqual([
      'one',
      'two',
      'three',
    ])
    expect(lines.filter((line) => line.type === 'run_start')).toHaveLength(1)
    expect(lines.at(-1)).toMatchObject({ type: 'run_end', exit_code: 0 })
    const sessionId = String(lines[0]?.session_id)
    const log = await readFile(join(box.root, 'data', 'z-engine', 'sessions', sessionId, 'log.jsonl'), 'utf8')
    expect(log).toContain('"first part"')
    expect(log).toContain('"second part"')
    expect(log).toContain('"third part"')
    const bad = await runInProcess(['exec', '--input-format', 'stream-json'], {
      cwd: box.project,
      env: box.env,
      stdin: '{"type":"prompt"}\n',
    })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('stdin line 1')
    // A later bad line ends the run after the turns before it ran: usage error, named by line.
    const later = await runInProcess(
      ['exec', '--model', `scripted:${script}`, '--input-format', 'stream-json', '--output-format', 'json'],
      { cwd: box.project, env: box.env, stdin: '{"type":"prompt","text":"ok"}\n{"type":"nope"}\n' },
    )
    expect(later.code).toBe(2)
    expect(JSON.parse(later.stdout)).toMatchObject({
      result: 'ok',
      exit_code: 2,
      error: { code: 'badInput', message: expect.stringContaining('stdin line 2') },
    })
    // A line over [input] max_line_bytes is refused (usage error), not buffered.
    await mkdir(join(box.project, '.z-engine'), { recursive: true })
    await writeFile(join(box.project, '.z-engine', 'settings.toml'), '[input]\nmax_line_bytes = 2048\n')
    const long = await runInProcess(
      ['exec', '--model', `scripted:${script}`, '--input-format', 'stream-json'],
      {
        cwd: box.project,
        env: box.env,
        stdin: `{"type":"prompt","text":"ok"}\n${JSON.stringify({ type: 'prompt', text: 'y'.repeat(5000) })}\n`,
      },
    )
    expect(long.code).toBe(2)
    expect(long.stderr).toMatch(/stdin line 2: the line is \d+ bytes, over the input limit of 2048 bytes/)
  })
})

describe('parseStreamJsonLine', () => {
  it("reads prompt, message and Claude Code's user lines, attaches base64 images, and names bad lines", async () => {
    const { parseStreamJsonLine } = await import('../src/exec/prompt-input.js')
    expect(
      parseStreamJsonLine(
        '{"type":"prompt","text":"a","images":[{"media_type":"image/png","data":"iVBORw0KGgo="}]}',
        1,
      ),
    ).toEqual({
      ok: true,
      prompt: {
        text: 'a',
        images: [{ type: 'image', source: { type: 'base64', mediaType: 'image/png', data: 'iVBORw0KGgo=' } }],
      },
    })
    expect(parseStreamJsonLine('   ', 2)).toEqual({ ok: true, prompt: undefined })
    expect(parseStreamJsonLine('{"type":"message","content":"b"}', 3)).toEqual({
      ok: true,
      prompt: { text: 'b', images: [] },
    })
    expect(
      parseStreamJsonLine(
        JSON.stringify({
          type: 'user',
          message: {
            role: 'user',
            content: [
              { type: 'text', text: 'c' },
              { type: 'text', text: 'd' },
            ],
          },
          session_id: 'default',
          parent_tool_use_id: null,
        }),
        4,
      ),
    ).toEqual({ ok: true, prompt: { text: 'c\n\nd', images: [] } })
    expect(
      parseStreamJsonLine(
        '{"type":"prompt","text":"a","images":[{"media_type":"image/bmp","data":"AA=="}]}',
        1,
      ),
    ).toMatchObject({ ok: false, error: expect.stringContaining('media_type') })
    expect(parseStreamJsonLine('not json', 2)).toMatchObject({
      ok: false,
      error: expect.stringContaining('stdin line 2'),
    })
    expect(parseStreamJsonLine('{"type":"message","role":"assistant","content":"x"}', 1)).toMatchObject({
      ok: false,
    })
    expect(parseStreamJsonLine('{"type":"user","message":"x"}', 1)).toMatchObject({ ok: false })
    expect(parseStreamJsonLine('{"type":"other"}', 1)).toMatchObject({
      ok: false,
      error: expect.stringContaining('"user"'),
    })
  })
})
