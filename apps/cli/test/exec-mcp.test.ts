/**
 * Issue 15 end to end through the built `z-engine exec`: the project's `.mcp.json` starts
 * server-everything and server-filesystem (npm), a scripted model calls their tools, the gate asks
 * in default mode (headless: denied) unless a rule allows, and a `mcp__*` deny rule stops every call.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { HEADLESS_DENIAL } from '../src/exec/headless-answers.js'
import { BIN, HAVE_DIST, type Sandbox, sandbox } from './helpers.js'

const require = createRequire(import.meta.url)
const entry = (manifest: string) => join(dirname(require.resolve(manifest)), 'dist', 'index.js')

type Line = Record<string, unknown>

async function mcpProject(permissions: string): Promise<Sandbox> {
  const box = await sandbox()
  const servers = {
    everything: {
      command: process.execPath,
      args: [entry('@modelcontextprotocol/server-everything/package.json'), 'stdio'],
    },
    files: {
      command: process.execPath,
      args: [entry('@modelcontextprotocol/server-filesystem/package.json'), box.project],
    },
  }
  await writeFile(join(box.project, '.mcp.json'), JSON.stringify({ mcpServers: servers }, null, 2))
  const config = join(box.root, 'config', 'z-engine')
  await mkdir(config, { recursive: true })
  await writeFile(join(config, 'settings.toml'), `[permissions]\n${permissions}\n`)
  return box
}

async function exec(
  box: Sandbox,
  round: readonly unknown[],
): Promise<{ code: number | null; lines: Line[] }> {
  const script = await box.script('mcp.jsonl', [
    { blocks: round },
    { blocks: [{ type: 'text', text: 'Done.' }] },
  ])
  // stdin is /dev/null, as for a script or CI job that pipes nothing in.
  const child = spawn(
    process.execPath,
    [
      BIN,
      'exec',
      '--trust',
      '--model',
      `scripted:${script}`,
      '--output-format',
      'stream-json',
      'use the servers',
    ],
    { cwd: box.project, env: box.env, stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  const code = await new Promise<number | null>((done) => child.on('close', done))
  // 4: the turn ran, but every change it tried was denied (stream-json's final says which).
  if (code !== 0 && code !== 4) throw new Error(`exec exited ${code}: ${stderr}\n${stdout}`)
  return {
    code,
    lines: stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line),
  }
}

const tool = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use', name, input })
const results = (lines: Line[]) =>
  Object.fromEntries(
    lines.filter((line) => line.type === 'tool_result').map((line) => [line.name, line]),
  ) as Record<string, Line>

describe.runIf(HAVE_DIST)('MCP through z-engine exec (built dist, real npm servers)', () => {
  it('calls mcp__everything__echo and a filesystem tool; in default mode an unlisted MCP call asks and is denied headless', async () => {
    const box = await mcpProject('allow = ["mcp__everything__echo", "mcp__files__read_text_file"]')
    const { lines } = await exec(box, [
      tool('mcp__everything__echo', { message: 'hello' }),
      tool('mcp__files__read_text_file', { path: join(box.project, 'README.md') }),
      tool('mcp__files__write_file', { path: join(box.project, 'out.txt'), content: 'from MCP' }),
    ])
    const byName = results(lines)
    expect(byName.mcp__everything__echo).toMatchObject({ status: 'ok', output: 'Echo: hello' })
    expect(byName.mcp__files__read_text_file).toMatchObject({ status: 'ok' })
    expect(String(byName.mcp__files__read_text_file!.output)).toContain('# demo')
    // Only the call no rule allows asks; headless, nobody can answer, so it is denied.
    const asked = lines.filter((line) => line.type === 'permission_request')
    expect(asked.map((line) => line.tool_name)).toEqual(['mcp__files__write_file'])
    expect(lines.find((line) => line.type === 'permission_decision')).toMatchObject({
      decision: 'deny',
      feedback: HEADLESS_DENIAL,
    })
    expect(byName.mcp__files__write_file).toMatchObject({ status: 'denied' })
    expect(existsSync(join(box.project, 'out.txt'))).toBe(false)
    // Its only change (the write) was denied, so the run is not a success.
    expect(lines.at(-1)).toMatchObject({ type: 'run_end', exit_code: 4 })
    expect(lines.find((line) => line.type === 'final')).toMatchObject({
      is_error: true,
      permission_denials: [{ tool_name: 'mcp__files__write_file' }],
    })
  }, 120_000)

  it('a mcp__* deny rule stops every MCP call, resource tools included, without asking', async () => {
    const box = await mcpProject(
      'allow = ["mcp__everything__echo", "mcp__files__read_text_file"]\ndeny = ["mcp__*"]',
    )
    const { lines } = await exec(box, [
      tool('mcp__everything__echo', { message: 'hello' }),
      tool('mcp__files__read_text_file', { path: join(box.project, 'README.md') }),
      tool('ListMcpResources', {}),
    ])
    const byName = results(lines)
    expect(Object.keys(byName).sort()).toEqual([
      'ListMcpResources',
      'mcp__everything__echo',
      'mcp__files__read_text_file',
    ])
    for (const result of Object.values(byName)) expect(result).toMatchObject({ status: 'denied' })
    expect(lines.filter((line) => line.type === 'permission_request')).toEqual([])
  }, 120_000)
})
