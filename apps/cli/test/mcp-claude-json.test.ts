/**
 * Issue 35: Claude Code's user and local MCP scopes, kept in `~/.claude.json`. What the real
 * `claude mcp add -s user|local` writes, z-engine's `mcp get`, `mcp list` and a `-p` session read;
 * what `z-engine mcp add -s user|local` writes is byte for byte the entries Claude Code writes for
 * the same arguments, keeps every other key of the file, and the real `claude mcp get` reads it.
 */
import { readFile, stat, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type RecordedRequest, type ServerStep, startScriptedServer } from '@z-engine/engine/testing'
import { describe, expect, it } from 'vitest'
import { CLAUDE_BIN, claudeEnv, claudeRuns, runProgram } from './claude-code.js'
import { runInProcess, type Sandbox, sandbox } from './helpers.js'

const FAULT_SERVER = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../packages/engine/test/fixtures/mcp/fault-server.mjs',
)

type Json = Record<string, unknown>

/** Claude Code's environment with its config in the default place, `$HOME/.claude.json`. */
async function claudeAt(box: Sandbox): Promise<NodeJS.ProcessEnv> {
  const { CLAUDE_CONFIG_DIR: _dir, ...env } = await claudeEnv(box.root, 'http://127.0.0.1:9')
  return env
}

async function claude(box: Sandbox, ...argv: string[]) {
  const run = await runProgram(CLAUDE_BIN, argv, { cwd: box.project, env: await claudeAt(box) })
  expect(run.code, run.stderr).toBe(0)
  return run
}

const zEngine = (box: Sandbox, env: NodeJS.ProcessEnv, ...argv: string[]) =>
  runInProcess(argv, { cwd: box.project, env })

describe('~/.claude.json: what Claude Code writes, z-engine reads', () => {
  it('mcp get, mcp list and a -p session see the user- and local-scope servers `claude mcp add` wrote', async () => {
    const box = await sandbox()
    const file = join(box.root, '.claude.json')
    if (claudeRuns()) {
      await claude(box, 'mcp', 'add', '-s', 'user', 'mine', '--', process.execPath, FAULT_SERVER)
      // No -s: Claude Code's default scope, local.
      await claude(box, 'mcp', 'add', 'here', '-e', 'FAULT_TOKEN=local', '--', process.execPath, FAULT_SERVER)
    } else {
      console.warn('!!! Claude Code cannot run here: ~/.claude.json is written in its recorded shape !!!')
      await writeFile(
        file,
        JSON.stringify({
          mcpServers: { mine: { type: 'stdio', command: process.execPath, args: [FAULT_SERVER], env: {} } },
          projects: {
            [box.project]: {
              allowedTools: [],
              mcpServers: {
                here: {
                  type: 'stdio',
                  command: process.execPath,
                  args: [FAULT_SERVER],
                  env: { FAULT_TOKEN: 'local' },
                },
              },
            },
          },
        }),
      )
    }
    const get = async (name: string) =>
      JSON.parse((await zEngine(box, box.env, 'mcp', 'get', name, '--json')).stdout)
    expect(await get('mine')).toMatchObject({ name: 'mine', scope: 'user', file, command: process.execPath })
    expect(await get('here')).toMatchObject({ scope: 'local', env: { FAULT_TOKEN: 'local' } })

    // mcp list starts servers only in a trusted workspace.
    expect((await zEngine(box, box.env, 'trust', box.project)).code).toBe(0)
    const listed = JSON.parse((await zEngine(box, box.env, 'mcp', 'list', '--json')).stdout) as {
      servers: Json[]
      notices: unknown[]
    }
    expect(listed.notices).toEqual([])
    expect(listed.servers).toEqual([
      expect.objectContaining({ name: 'mine', layer: 'claudeJsonUser', file, status: 'ready' }),
      expect.objectContaining({ name: 'here', layer: 'claudeJsonLocal', file, status: 'ready' }),
    ])
    expect(listed.servers[1]?.stderr).toContain('FAULT_TOKEN=local')

    // A session: the model calls the local-scope server's tool and gets its answer.
    let step = 0
    const server = await startScriptedServer((request: RecordedRequest): ServerStep => {
      if (!Array.isArray(request.body.tools) || request.body.tools.length === 0)
        return { blocks: [{ type: 'text', text: 'ok' }] }
      return step++ === 0
        ? { blocks: [{ type: 'tool_use', name: 'mcp__here__echo', input: { message: 'from local scope' } }] }
        : { blocks: [{ type: 'text', text: 'Done.' }] }
    })
    try {
      const run = await zEngine(
        box,
        { ...box.env, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test-key' },
        '-p',
        'echo it',
        '--output-format',
        'stream-json',
        '--verbose',
        '--model',
        'claude-sonnet-4-5',
        '--allowedTools',
        'mcp__here__echo',
      )
      expect(run.code, run.stderr).toBe(0)
      const lines = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Json)
      expect(lines[0]?.mcp_servers).toEqual(
        expect.arrayContaining([
          { name: 'mine', status: 'connected' },
          { name: 'here', status: 'connected' },
        ]),
      )
      const modelRequests = server.requests.filter((request) => Array.isArray(request.body.tools))
      expect(JSON.stringify(modelRequests.at(-1)?.body.messages)).toContain('echo: from local scope')
    } finally {
      await server.close()
    }
  }, 180_000)

  it('reports a malformed ~/.claude.json by name, changes nothing, and still reads the rest', async () => {
    const box = await sandbox()
    const file = join(box.root, '.claude.json')
    await writeFile(file, '{"numStartups": 4, "mcpServers": {')
    await writeFile(
      join(box.project, '.mcp.json'),
      JSON.stringify({ mcpServers: { proj: { command: 'true' } } }),
    )
    const added = await zEngine(box, box.env, 'mcp', 'add', '-s', 'user', 'x', '--', 'node')
    expect(added.code).toBe(1)
    expect(added.stderr).toContain(`${file} is not valid JSON`)
    expect(added.stderr).toContain('nothing was changed')
    expect(await readFile(file, 'utf8')).toBe('{"numStartups": 4, "mcpServers": {')
    // The project scope does not need the file.
    expect((await zEngine(box, box.env, 'mcp', 'add', '-s', 'project', 'y', '--', 'true')).code).toBe(0)
    expect((await zEngine(box, box.env, 'trust', box.project)).code).toBe(0)
    const listed = await zEngine(box, box.env, 'mcp', 'list', '--json')
    expect(listed.code).toBe(1)
    const value = JSON.parse(listed.stdout) as { servers: Json[]; notices: Json[] }
    expect(value.servers.map((server) => server.name)).toEqual(['proj', 'y'])
    expect(value.notices).toEqual([
      expect.objectContaining({ layer: 'claudeJsonUser', code: 'json_invalid', file }),
    ])
  })
})

describe('~/.claude.json: what z-engine writes, Claude Code reads', () => {
  it('mcp add -s user|local (local the default) writes the entries Claude Code writes, keeping the rest', async () => {
    const ours = await sandbox()
    const file = join(ours.root, '.claude.json')
    // A file Claude Code has been using: keys of its own, another project, mode 0600.
    const before = {
      numStartups: 12,
      userID: 'abc',
      mcpServers: { old: { type: 'stdio', command: 'old', args: [], env: {} } },
      projects: { '/elsewhere': { allowedTools: ['Bash'], mcpServers: {}, hasTrustDialogAccepted: true } },
    }
    await writeFile(file, JSON.stringify(before, null, 2), { mode: 0o600 })
    const commands: string[][] = [
      ['add', '-s', 'user', '-t', 'http', 'api', 'https://example.com/mcp', '-H', 'Authorization: Bearer x'],
      ['add', 'files', '-e', 'A=1', '--', 'node', 'server.js', '--flag'],
      ['add-json', '-s', 'local', 'echo', '{"command":"echo"}'],
      ['add-json', '-s', 'user', 'files', '{"command":"user-files"}'],
    ]
    for (const argv of commands) {
      const run = await zEngine(ours, ours.env, 'mcp', ...argv)
      expect(run.code, run.stderr).toBe(0)
    }
    const written = JSON.parse(await readFile(file, 'utf8')) as Json
    const expected = {
      user: {
        old: { type: 'stdio', command: 'old', args: [], env: {} },
        api: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
        files: { command: 'user-files', args: [] },
      },
      local: {
        files: { type: 'stdio', command: 'node', args: ['server.js', '--flag'], env: { A: '1' } },
        echo: { command: 'echo', args: [] },
      },
    }
    expect(written).toEqual({
      ...before,
      mcpServers: expected.user,
      projects: {
        ...before.projects,
        [ours.project]: {
          allowedTools: [],
          mcpContextUris: [],
          mcpServers: expected.local,
          enabledMcpjsonServers: [],
          disabledMcpjsonServers: [],
          hasTrustDialogAccepted: false,
          hasClaudeMdExternalIncludesApproved: false,
          hasClaudeMdExternalIncludesWarningShown: false,
        },
      },
    })
    expect((await stat(file)).mode & 0o777).toBe(0o600)

    // remove: a name in two scopes needs -s, as in Claude Code.
    const both = await zEngine(ours, ours.env, 'mcp', 'remove', 'files')
    expect(both.code).toBe(1)
    expect(both.stderr).toContain('exists in multiple scopes')
    expect(JSON.parse((await zEngine(ours, ours.env, 'mcp', 'get', 'files', '--json')).stdout).scope).toBe(
      'local',
    )

    if (!claudeRuns()) {
      console.warn('!!! Claude Code cannot run here: its reading of ~/.claude.json is not checked !!!')
      return
    }
    // The same commands through the real Claude Code, in another home, write the same entries.
    const theirs = await sandbox()
    await writeFile(join(theirs.root, '.claude.json'), JSON.stringify(before, null, 2), { mode: 0o600 })
    // (Claude Code's -e takes every word up to `--`, so the name goes before it there too.)
    for (const argv of commands) await claude(theirs, 'mcp', ...argv)
    const real = JSON.parse(await readFile(join(theirs.root, '.claude.json'), 'utf8')) as {
      mcpServers: Json
      projects: Record<string, Json>
    }
    expect(real.mcpServers).toEqual(expected.user)
    expect(real.projects[theirs.project]).toEqual((written.projects as Record<string, Json>)[ours.project])

    // And the real Claude Code reads the file z-engine wrote.
    const got = await claude(ours, 'mcp', 'get', 'api')
    expect(got.stdout).toContain('Scope: User config')
    expect(got.stdout).toContain('https://example.com/mcp')
    const local = await claude(ours, 'mcp', 'get', 'files')
    expect(local.stdout).toContain('Scope: Local config')
    expect(local.stdout).toContain('server.js --flag')
    expect((await zEngine(ours, ours.env, 'mcp', 'remove', 'files', '-s', 'local')).code).toBe(0)
    const after = await claude(ours, 'mcp', 'get', 'files')
    expect(after.stdout).toContain('Scope: User config')
  }, 180_000)
})
