import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess, type Sandbox, sandbox } from './helpers.js'

/**
 * Claude Code compatibility (issue 18), hooks: a `.claude/settings.json` written for Claude Code
 * (CRLF line ends and a BOM included), checked through `hooks list --json` and `hooks test --json`.
 */

async function put(root: string, path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true })
  await writeFile(join(root, path), text)
}

const crlf = (text: string) => `\uFEFF${text.replace(/\n/g, '\r\n')}`

async function trusted(hooks: Record<string, unknown>): Promise<Sandbox> {
  const box = await sandbox()
  await put(box.project, '.claude/settings.json', crlf(JSON.stringify({ hooks }, null, 2)))
  const trust = await runInProcess(['trust', box.project], { cwd: box.root, env: box.env })
  expect(trust.code).toBe(0)
  return box
}

async function hooksTest(box: Sandbox, event: string, input: Record<string, unknown>) {
  const file = join(box.root, `${event}.json`)
  await writeFile(file, JSON.stringify(input))
  const result = await runInProcess(
    ['hooks', 'test', event, '--input', file, '--json', '--cwd', box.project],
    {
      cwd: box.root,
      env: box.env,
    },
  )
  return {
    code: result.code,
    stderr: result.stderr,
    value: result.stdout ? JSON.parse(result.stdout) : undefined,
  }
}

describe('Claude Code compatibility: hooks', () => {
  it('hooks list --json shows every field: matcher kind (exact, | list, regex), if, default timeouts', async () => {
    const box = await trusted({
      PreToolUse: [
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo exact', if: 'Bash(git *)' }] },
        { matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'echo list', timeout: 5 }] },
        { matcher: 'mcp__.*__write.*', hooks: [{ type: 'command', command: 'echo regex' }] },
      ],
      UserPromptSubmit: [{ hooks: [{ type: 'command', command: 'echo prompt' }] }],
      SubagentStart: [{ matcher: 'reviewer', hooks: [{ type: 'command', command: 'echo start' }] }],
    })
    const result = await runInProcess(['hooks', 'list', '--json', '--cwd', box.project], {
      cwd: box.root,
      env: box.env,
    })
    expect(result.code).toBe(0)
    const value = JSON.parse(result.stdout)
    const file = join(box.project, '.claude/settings.json')
    expect(value.hooks.PreToolUse).toEqual([
      {
        command: 'echo exact',
        matcher: 'Bash',
        matcherKind: 'exact',
        if: 'Bash(git *)',
        timeoutSecs: 600,
        timeoutIsDefault: true,
        source: file,
        plugin: null,
        env: {},
      },
      {
        command: 'echo list',
        matcher: 'Edit|Write',
        matcherKind: 'list',
        if: null,
        timeoutSecs: 5,
        timeoutIsDefault: false,
        source: file,
        plugin: null,
        env: {},
      },
      {
        command: 'echo regex',
        matcher: 'mcp__.*__write.*',
        matcherKind: 'regex',
        if: null,
        timeoutSecs: 600,
        timeoutIsDefault: true,
        source: file,
        plugin: null,
        env: {},
      },
    ])
    expect(value.hooks.UserPromptSubmit[0]).toMatchObject({ matcherKind: 'all', timeoutSecs: 30 })
    expect(value.hooks.SubagentStart[0]).toMatchObject({ matcher: 'reviewer', matcherKind: 'exact' })
  })

  it('hooks list refuses the blocks Claude Code refuses (exit 1, each error naming file and field) and lists the rest', async () => {
    const box = await trusted({
      PreToolUse: [
        { matcher: ['Bash'], hooks: [{ type: 'command', command: 'echo matcher-list' }] },
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo slow', timeout: '5s' }] },
        { matcher: 'Bash', hooks: [{ type: 'command', command: 'echo kept' }] },
      ],
    })
    const result = await runInProcess(['hooks', 'list', '--json', '--cwd', box.project], {
      cwd: box.root,
      env: box.env,
    })
    expect(result.code).toBe(1)
    const value = JSON.parse(result.stdout)
    const file = join(box.project, '.claude/settings.json')
    expect(value.hooks.PreToolUse.map((hook: { command: string }) => hook.command)).toEqual(['echo kept'])
    expect(
      value.notices
        .filter((notice: { code: string }) => notice.code === 'hook_invalid')
        .map((notice: { severity: string; file: string; key: string }) => [
          notice.severity,
          notice.file,
          notice.key,
        ]),
    ).toEqual([
      ['error', file, 'hooks.PreToolUse[0].matcher'],
      ['error', file, 'hooks.PreToolUse[1].hooks[0].timeout'],
    ])
  })

  it('hooks test feeds the stdin a session would, with permission_mode and agent_type', async () => {
    const box = await trusted({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'command', command: `cat > "${'$'}CLAUDE_PROJECT_DIR/stdin.json"` }],
        },
      ],
    })
    const { code, value } = await hooksTest(box, 'PreToolUse', {
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
      agent_id: 'a1',
      agent_type: 'reviewer',
    })
    expect(code).toBe(0)
    const stdin = JSON.parse(await readFile(join(box.project, 'stdin.json'), 'utf8'))
    expect(stdin).toEqual(value.stdin)
    expect(stdin).toEqual({
      session_id: 'hooks-test',
      transcript_path: '',
      cwd: box.project,
      permission_mode: 'default',
      hook_event_name: 'PreToolUse',
      agent_id: 'a1',
      agent_type: 'reviewer',
      tool_name: 'Bash',
      tool_input: { command: 'ls' },
    })
  })

  it('hooks test refuses an input that lacks what a session always sends', async () => {
    const box = await trusted({})
    const { code, stderr } = await hooksTest(box, 'PreToolUse', { tool_input: { command: 'ls' } })
    expect(code).not.toBe(0)
    expect(stderr).toContain('"tool_name"')
  })

  it('the if filter runs a hook only for matching calls (Bash(git *) on a compound line)', async () => {
    const box = await trusted({
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [{ type: 'command', command: 'echo no git >&2; exit 2', if: 'Bash(git *)' }],
        },
      ],
    })
    const git = await hooksTest(box, 'PreToolUse', {
      tool_name: 'Bash',
      tool_input: { command: 'ls && git push' },
    })
    expect(git.value.blocked).toBe(true)
    const ls = await hooksTest(box, 'PreToolUse', { tool_name: 'Bash', tool_input: { command: 'ls' } })
    expect(ls.value.results).toEqual([])
  })

  it('hooks test rejects outcomes a session would ignore (exit 2 on SessionStart, a decision on Stop)', async () => {
    const box = await trusted({
      SessionStart: [{ hooks: [{ type: 'command', command: 'echo nope >&2; exit 2' }] }],
      Stop: [
        {
          hooks: [
            {
              type: 'command',
              command: `echo '{"hookSpecificOutput":{"hookEventName":"Stop","permissionDecision":"allow"}}'`,
            },
          ],
        },
      ],
    })
    const start = await hooksTest(box, 'SessionStart', {})
    expect(start.code).toBe(1)
    expect(start.value.blocked).toBe(false)
    expect(start.value.ignored[0]).toContain('exit code 2')
    const stop = await hooksTest(box, 'Stop', {})
    expect(stop.code).toBe(1)
    expect(stop.value.ignored[0]).toContain('permissionDecision')
  })

  it('SubagentStop hooks match on the agent type', async () => {
    const box = await trusted({
      SubagentStop: [
        { matcher: 'reviewer', hooks: [{ type: 'command', command: 'echo keep going >&2; exit 2' }] },
      ],
    })
    const reviewer = await hooksTest(box, 'SubagentStop', { agent_type: 'reviewer' })
    expect(reviewer.value).toMatchObject({ blocked: true, blockReason: 'keep going' })
    const other = await hooksTest(box, 'SubagentStop', { agent_type: 'Explore' })
    expect(other.value.results).toEqual([])
  })
})
