/**
 * Issue 35: `z-engine mcp add|add-json|remove|get` with Claude Code's arguments write the project's
 * `.mcp.json` as `claude mcp add -s project` does (checked against the shape Claude Code 2.1.332
 * wrote, and read back by the real Claude Code where it runs); a session then sees the server.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CLAUDE_BIN, claudeEnv, claudeRuns, runProgram } from './claude-code.js'
import { runInProcess, sandbox } from './helpers.js'

describe('z-engine mcp add|add-json|remove|get', () => {
  it("writes .mcp.json as Claude Code's project scope does, and reads and removes it", async () => {
    const box = await sandbox()
    const run = (...argv: string[]) => runInProcess(['mcp', ...argv], { cwd: box.project, env: box.env })
    expect(
      (await run('add', '-s', 'project', '-e', 'A=1', 'files', '--', 'node', 'server.js', '--flag')).code,
    ).toBe(0)
    expect(
      (
        await run(
          'add',
          '-s',
          'project',
          '--transport',
          'http',
          'api',
          'https://example.com/mcp',
          '-H',
          'Authorization: Bearer x',
        )
      ).code,
    ).toBe(0)
    expect((await run('add-json', '-s', 'project', 'echo', '{"command":"echo"}')).code).toBe(0)
    const file = JSON.parse(await readFile(join(box.project, '.mcp.json'), 'utf8'))
    // The entries `claude mcp add -s project` / `add-json` wrote for the same arguments.
    expect(file).toEqual({
      mcpServers: {
        files: { type: 'stdio', command: 'node', args: ['server.js', '--flag'], env: { A: '1' } },
        api: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
        echo: { command: 'echo', args: [] },
      },
    })
    const got = await run('get', 'files', '--json')
    expect(JSON.parse(got.stdout)).toMatchObject({ name: 'files', scope: 'project', command: 'node' })

    const again = await run('add', '-s', 'project', 'files', '--', 'node')
    expect(again.code).toBe(2)
    expect(again.stderr).toContain('already exists')
    // Without -s, Claude Code's default scope: local, in ~/.claude.json (mcp-claude-json.test.ts).
    const local = await run('add', 'mine', '--', 'node')
    expect(local.code).toBe(0)
    expect(local.stdout).toContain(
      `to local config\nFile modified: ${join(box.root, '.claude.json')} [project: ${box.project}]`,
    )
    expect(
      Object.keys(JSON.parse(await readFile(join(box.project, '.mcp.json'), 'utf8')).mcpServers),
    ).not.toContain('mine')

    if (claudeRuns()) {
      // The real Claude Code reads the file z-engine wrote.
      const claude = await runProgram(CLAUDE_BIN, ['mcp', 'get', 'api'], {
        cwd: box.project,
        env: await claudeEnv(box.root, 'http://127.0.0.1:9'),
      })
      expect(claude.stdout).toContain('https://example.com/mcp')
    } else console.warn('!!! Claude Code cannot run here: its reading of .mcp.json is not checked !!!')

    expect((await run('remove', '-s', 'project', 'files')).code).toBe(0)
    const after = JSON.parse(await readFile(join(box.project, '.mcp.json'), 'utf8'))
    expect(Object.keys(after.mcpServers)).toEqual(['api', 'echo'])
    expect((await run('get', 'files')).code).toBe(1)
  }, 120_000)
})
