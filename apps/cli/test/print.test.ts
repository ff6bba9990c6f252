/**
 * Issue 35: `z-engine -p` with Claude Code's headless flags, each checked through what a script
 * reads (the init and result lines) or what the model was sent (the scripted wire server's
 * requests). Runs the CLI in this process on the TypeScript sources.
 */
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type RecordedRequest, type ServerStep, startScriptedServer } from '@z-engine/engine/testing'
import { describe, expect, it } from 'vitest'
import { runInProcess, type Sandbox, sandbox } from './helpers.js'

type Line = Record<string, unknown>

const lines = (stdout: string): Line[] =>
  stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line)

/** Answers each request that offers tools with the next step; the last step repeats. */
function steps(...answers: ServerStep[]): (request: RecordedRequest) => ServerStep {
  let next = 0
  return (request) => {
    const tools = request.body.tools
    if (!Array.isArray(tools) || tools.length === 0) return { blocks: [{ type: 'text', text: 'ok' }] }
    return answers[Math.min(next++, answers.length - 1)] as ServerStep
  }
}

async function print(
  box: Sandbox,
  script: (request: RecordedRequest) => ServerStep,
  argv: readonly string[],
  stdin?: string,
) {
  const server = await startScriptedServer(script)
  try {
    const run = await runInProcess(['-p', ...argv, '--model', 'claude-sonnet-4-5'], {
      cwd: box.project,
      env: { ...box.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' },
      ...(stdin !== undefined ? { stdin } : {}),
    })
    const modelRequests = server.requests.filter((request) => Array.isArray(request.body.tools))
    const json = argv.includes('stream-json') || argv.includes('z-engine-events')
    return { ...run, lines: json ? lines(run.stdout) : [], requests: modelRequests }
  } finally {
    await server.close()
  }
}

const text = (value: string): ServerStep => ({ blocks: [{ type: 'text', text: value }] })
const STREAM = ['--output-format', 'stream-json', '--verbose']

describe('z-engine -p: flags we cannot honour are refused by name', () => {
  it('refuses --permission-mode auto and a fallback equal to the model, and names a mistyped mode', async () => {
    const made = await sandbox()
    const box = { cwd: made.project, env: made.env }
    const same = await runInProcess(['-p', 'hi', '--model', 'sonnet', '--fallback-model', 'sonnet'], box)
    expect(same.code).toBe(2)
    expect(same.stderr).toContain('Fallback model cannot be the same as the main model')
    const auto = await runInProcess(['-p', 'hi', '--permission-mode', 'auto'], box)
    expect(auto.code).toBe(2)
    expect(auto.stderr).toContain('--permission-mode auto')
    const typo = await runInProcess(['-p', 'hi', '--permission-mode', 'acceptEdit'], box)
    expect(typo.stderr).toContain("Did you mean 'acceptEdits'?")
    const unknown = await runInProcess(['-p', 'hi', '--verbos'], box)
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain("'--verbose'")
  })
})

describe('z-engine -p: Claude Code flags', () => {
  it('--fallback-model: a model still overloaded (529) after its retries hands the turn to the fallback', async () => {
    const box = await sandbox()
    const overloaded: ServerStep = {
      fault: {
        type: 'status',
        status: 529,
        body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        headers: { 'retry-after': '0' },
      },
    }
    let primaryRounds = 0
    const script = (request: RecordedRequest): ServerStep => {
      if (!Array.isArray(request.body.tools) || request.body.tools.length === 0) return text('ok')
      if (request.body.model === 'claude-haiku-4-5') return text('Done on the fallback.')
      // The main model answers the first round, then is overloaded on every attempt.
      return primaryRounds++ === 0
        ? {
            blocks: [
              { type: 'tool_use', name: 'Read', input: { file_path: join(box.project, 'README.md') } },
            ],
          }
        : overloaded
    }
    const run = await print(box, script, [
      ...STREAM,
      '--fallback-model',
      'claude-haiku-4-5',
      'read the readme',
    ])
    expect(run.code, run.stderr).toBe(0)
    const models = run.requests.map((request) => request.body.model)
    // One good round, then the first attempt and four retries on the main model, then the fallback.
    expect(models).toEqual([...Array(6).fill('claude-sonnet-4-5'), 'claude-haiku-4-5'])
    // The fallback got the whole conversation: the tool call and its result.
    expect(JSON.stringify(run.requests.at(-1)?.body.messages)).toContain('# demo')
    const result = run.lines.at(-1) as Line & { modelUsage: Record<string, { outputTokens: number }> }
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      result: 'Done on the fallback.',
    })
    expect(Object.keys(result.modelUsage).sort()).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-5'])
    expect((result.z_engine as { warnings: string[] }).warnings).toEqual(
      expect.arrayContaining([expect.stringContaining('continues on the fallback model claude-haiku-4-5')]),
    )

    // Without --fallback-model the same overload fails the turn.
    primaryRounds = 1
    const failed = await print(box, script, [...STREAM, 'again'])
    expect(failed.code).toBe(1)
    expect(failed.lines.at(-1)).toMatchObject({ type: 'result', is_error: true })
    expect(failed.requests.every((request) => request.body.model === 'claude-sonnet-4-5')).toBe(true)
  })

  it('--session-id names the session; -r resumes it; --fork-session continues a copy', async () => {
    const box = await sandbox()
    const id = '3f1c2b7a-9d4e-4b8a-a1c2-0123456789ab'
    const first = await print(box, steps(text('One.')), [...STREAM, '--session-id', id, 'first'])
    expect(first.code, first.stderr).toBe(0)
    expect(first.lines[0]).toMatchObject({ type: 'system', subtype: 'init', session_id: id })
    expect(first.lines.at(-1)).toMatchObject({ type: 'result', session_id: id, result: 'One.' })

    const resumed = await print(box, steps(text('Two.')), ['--output-format', 'json', '-r', id, 'second'])
    expect(JSON.parse(resumed.stdout)).toMatchObject({ type: 'result', session_id: id, result: 'Two.' })
    expect(resumed.requests[0]?.body.messages).toHaveLength(3)

    const forked = await print(box, steps(text('Three.')), [
      '--output-format',
      'json',
      '-c',
      '--fork-session',
      'x',
    ])
    const result = JSON.parse(forked.stdout) as Line
    expect(result.session_id).not.toBe(id)
    expect(forked.requests[0]?.body.messages).toHaveLength(5)
  })

  it('--allowedTools lets a call run; without it the change is denied: permission_denials, is_error, exit 4', async () => {
    const box = await sandbox()
    const write = (): ServerStep => ({
      blocks: [
        {
          type: 'tool_use',
          name: 'Write',
          input: { file_path: join(box.project, 'new.txt'), content: 'x\n' },
        },
      ],
    })
    const denied = await print(box, steps(write(), text('Could not write.')), [...STREAM, 'write it'])
    expect(denied.code).toBe(4)
    const result = denied.lines.at(-1) as Line
    expect(result).toMatchObject({ subtype: 'success', is_error: true, z_engine: { exit_code: 4 } })
    expect(result.permission_denials).toEqual([
      expect.objectContaining({
        tool_name: 'Write',
        tool_input: expect.objectContaining({ content: 'x\n' }),
      }),
    ])
    expect(existsSync(join(box.project, 'new.txt'))).toBe(false)

    const allowed = await print(box, steps(write(), text('Written.')), [
      ...STREAM,
      '--allowedTools',
      'Read,Write',
      'Bash(git log:*)',
      '--',
      'write it',
    ])
    expect(allowed.code, allowed.stderr).toBe(0)
    expect(existsSync(join(box.project, 'new.txt'))).toBe(true)
    expect(allowed.lines.at(-1)).toMatchObject({ is_error: false, permission_denials: [] })
  })

  it('--disallowedTools denies even in bypassPermissions; the init line names the mode', async () => {
    const box = await sandbox()
    const run = await print(
      box,
      steps(
        { blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo hi' } }] },
        text('No shell.'),
      ),
      [...STREAM, '--dangerously-skip-permissions', '--disallowed-tools', 'Bash', '--', 'run it'],
    )
    expect(run.lines[0]).toMatchObject({ permissionMode: 'bypassPermissions' })
    expect(run.lines.at(-1)?.permission_denials).toEqual([expect.objectContaining({ tool_name: 'Bash' })])
  })

  it("reads rules in Claude Code's tool names (LS is the engine's Glob)", async () => {
    const box = await sandbox()
    const run = await print(
      box,
      steps(
        { blocks: [{ type: 'tool_use', name: 'Glob', input: { pattern: '*.md' } }] },
        text('Nothing listed.'),
      ),
      [...STREAM, '--disallowedTools', 'LS', '--', 'list files'],
    )
    expect(run.lines.at(-1)?.permission_denials).toEqual([expect.objectContaining({ tool_name: 'Glob' })])
  })

  it('--append-system-prompt and --system-prompt reach the model; piped stdin follows the prompt', async () => {
    const box = await sandbox()
    const appended = await print(
      box,
      steps(text('Summary.')),
      ['--append-system-prompt', 'Answer in French.', 'summarize this log'],
      'ERROR disk full\n',
    )
    expect(appended.code, appended.stderr).toBe(0)
    expect(appended.stdout).toBe('Summary.\n')
    const request = appended.requests[0]?.body as { system: unknown; messages: unknown }
    expect(JSON.stringify(request.system)).toContain('Answer in French.')
    expect(JSON.stringify(request.messages)).toContain('summarize this log\\n\\nERROR disk full')

    const replaced = await print(box, steps(text('Oui.')), ['--system-prompt', 'You are a pirate.', 'hi'])
    const system = JSON.stringify(replaced.requests[0]?.body.system)
    expect(system).toContain('You are a pirate.')
    expect(system).not.toContain(JSON.stringify(request.system).slice(20, 80))
  })

  it('--max-turns ends with error_max_turns and exit 3', async () => {
    const box = await sandbox()
    const run = await print(
      box,
      steps({
        blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(box.project, 'README.md') } }],
      }),
      [...STREAM, '--max-turns', '1', 'read forever'],
    )
    expect(run.code).toBe(3)
    expect(run.lines.at(-1)).toMatchObject({
      subtype: 'error_max_turns',
      is_error: true,
      terminal_reason: 'max_turns',
    })
  })

  it('--mcp-config adds servers; --strict-mcp-config leaves out every other one', async () => {
    const box = await sandbox()
    await mkdir(join(box.root, 'config/z-engine'), { recursive: true })
    await writeFile(
      join(box.root, 'config/z-engine/settings.toml'),
      '[mcp.servers.other]\ncommand = "false"\n',
    )
    const config = JSON.stringify({ mcpServers: { mine: { command: 'false' } } })
    const names = (run: { lines: Line[] }) =>
      ((run.lines[0] as Line).mcp_servers as Array<{ name: string }>).map((server) => server.name).sort()
    const both = await print(box, steps(text('ok')), [...STREAM, '--mcp-config', config, '--', 'hi'])
    expect(names(both)).toEqual(['mine', 'other'])
    const strict = await print(box, steps(text('ok')), [
      ...STREAM,
      '--mcp-config',
      config,
      '--strict-mcp-config',
      '--',
      'hi',
    ])
    expect(names(strict)).toEqual(['mine'])
  })

  it('--include-partial-messages adds stream_event lines; z-engine-events prints the engine lines', async () => {
    const box = await sandbox()
    const partial = await print(box, steps(text('Hello.')), [...STREAM, '--include-partial-messages', 'hi'])
    const events = partial.lines.filter((line) => line.type === 'stream_event')
    expect(events.map((line) => (line.event as Line).type)).toEqual(
      expect.arrayContaining(['content_block_start', 'content_block_delta', 'content_block_stop']),
    )
    const engine = await print(box, steps(text('Hello.')), ['--output-format', 'z-engine-events', 'hi'])
    expect(engine.lines[0]?.type).toBe('run_start')
    expect(engine.lines.at(-1)?.type).toBe('run_end')
  })

  it('--input-format stream-json: one result per input line, in one session', async () => {
    const box = await sandbox()
    const input = `${['one', 'two']
      .map((content) => JSON.stringify({ type: 'user', message: { role: 'user', content } }))
      .join('\n')}\n`
    const run = await print(
      box,
      steps(text('A.'), text('B.')),
      [...STREAM, '--input-format', 'stream-json'],
      input,
    )
    const results = run.lines.filter((line) => line.type === 'result')
    expect(results.map((line) => line.result)).toEqual(['A.', 'B.'])
    expect(results.map((line) => line.result_index)).toEqual([0, 1])
    expect(new Set(results.map((line) => line.session_id)).size).toBe(1)
  })
})
