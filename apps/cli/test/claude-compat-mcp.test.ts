// biome-ignore-all lint/suspicious/noTemplateCurlyInString: .mcp.json holds ${VAR} references, not templates
import { mkdir, writeFile } from 'node:fs/promises'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { runInProcess, type Sandbox, sandbox } from './helpers.js'

/**
 * Claude Code compatibility (issue 18, ".mcp.json"): every transport and field spelling Claude Code
 * accepts, `${VAR}` / `${VAR:-default}` expansion, missing variables warned with a code, and other
 * clients' fields ignored without failing the file — through `mcp list --json`.
 */

const FAULT_SERVER = resolve(
  dirname(fileURLToPath(import.meta.url)),
  '../../../packages/engine/test/fixtures/mcp/fault-server.mjs',
)

type Server = Record<string, unknown> & { name: string; status: string; stderr?: string }
type Notice = { severity: string; code?: string; key?: string; message: string }
type Issue = { severity: string; code: string; server: string; variables?: string[] }

async function mcpList(box: Sandbox, env: NodeJS.ProcessEnv = box.env) {
  const result = await runInProcess(['mcp', 'list', '--json', '--cwd', box.project], { cwd: box.root, env })
  const value = JSON.parse(result.stdout) as { servers: Server[]; notices: Notice[]; issues: Issue[] }
  return { code: result.code, ...value, find: (name: string) => value.servers.find((s) => s.name === name) }
}

async function project(mcpJson: string): Promise<Sandbox> {
  const box = await sandbox()
  await writeFile(join(box.project, '.mcp.json'), mcpJson)
  expect((await runInProcess(['trust', box.project], { cwd: box.root, env: box.env })).code).toBe(0)
  return box
}

/** A local HTTP endpoint that records what a client sent (the MCP handshake then fails). */
async function recorder(): Promise<{
  url: string
  requests: Array<{ url: string; headers: IncomingHttpHeaders }>
  close(): Promise<void>
}> {
  const requests: Array<{ url: string; headers: IncomingHttpHeaders }> = []
  const server = createServer((request, response) => {
    requests.push({ url: request.url ?? '', headers: request.headers })
    response.writeHead(404).end()
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((done) => server.close(() => done())),
  }
}

describe('Claude Code compatibility: .mcp.json', () => {
  it('starts a stdio server with command, args, env and cwd, expanding ${VAR} and ${VAR:-default}', async () => {
    const box = await project(
      JSON.stringify({
        mcpServers: {
          local: {
            type: 'stdio',
            command: '${NODE_BIN:-node}',
            args: ['${SERVER_SCRIPT}'],
            env: { FAULT_TOKEN: 'token-${TOKEN_PART}', PATH: '${PATH}' },
            cwd: '${TOOLS_DIR:-tools}',
          },
        },
      }),
    )
    await mkdir(join(box.project, 'tools'))
    const listed = await mcpList(box, { ...box.env, SERVER_SCRIPT: FAULT_SERVER, TOKEN_PART: 'abc' })
    expect(listed.find('local')).toMatchObject({ status: 'ready', transport: 'stdio' })
    expect(listed.find('local')?.stderr).toContain('FAULT_TOKEN=token-abc')
    expect(listed.find('local')?.stderr).toContain(`cwd=${join(box.project, 'tools')}`)
    expect(listed.issues).toEqual([])
  })

  it('sends url and headers, expanded, for type http, streamable-http and sse', async () => {
    const endpoint = await recorder()
    try {
      const box = await project(
        JSON.stringify({
          mcpServers: {
            api: {
              type: 'http',
              url: `${endpoint.url}/\${MCP_PATH:-mcp}`,
              headers: { Authorization: 'Bearer ${API_KEY}' },
            },
            streamed: { type: 'streamable-http', url: `${endpoint.url}/streamed` },
            events: { type: 'sse', url: `${endpoint.url}/sse`, headers: { 'X-Team': '${TEAM:-core}' } },
            // Claude Code skips a url with no type, and so does Z Engine, by name.
            untyped: { url: `${endpoint.url}/untyped` },
          },
        }),
      )
      const listed = await mcpList(box, { ...box.env, API_KEY: 'secret-1' })
      expect(listed.servers.map((server) => [server.name, server.transport])).toEqual([
        ['api', 'http'],
        ['streamed', 'http'],
        ['events', 'sse'],
      ])
      const sent = (path: string) => endpoint.requests.find((request) => request.url === path)
      expect(sent('/mcp')?.headers.authorization).toBe('Bearer secret-1')
      expect(sent('/streamed')).toBeDefined()
      expect(sent('/sse')?.headers['x-team']).toBe('core')
      expect(sent('/untyped')).toBeUndefined()
    } finally {
      await endpoint.close()
    }
  })

  it('warns about a variable that is not set (code env_missing, naming it) and still lists the server', async () => {
    const box = await project(
      JSON.stringify({
        mcpServers: {
          gh: {
            command: 'node',
            args: [FAULT_SERVER, '--tag=${TAG}'],
            env: { GITHUB_TOKEN: '${GITHUB_TOKEN}' },
          },
        },
      }),
    )
    const listed = await mcpList(box)
    expect(listed.issues).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'env_missing',
        server: 'gh',
        variables: ['TAG', 'GITHUB_TOKEN'],
      }),
    ])
    expect(listed.find('gh')).toMatchObject({ status: 'ready' })
  })

  it("ignores other clients' fields (field_ignored) without failing the file, and reads a BOM", async () => {
    const box = await project(
      `\uFEFF${JSON.stringify({
        mcpServers: {
          local: {
            command: 'node',
            args: [FAULT_SERVER],
            disabled: false,
            autoApprove: ['echo'],
            alwaysAllow: [],
            transportType: 'stdio',
          },
          broken: { type: 'ws', url: 'ws://127.0.0.1:1' },
        },
        inputs: [],
      })}`,
    )
    const listed = await mcpList(box)
    expect(listed.find('local')).toMatchObject({ status: 'ready' })
    expect(
      listed.notices.filter((notice) => notice.code === 'field_ignored').map((notice) => notice.key),
    ).toEqual([
      'mcp.servers.local.disabled',
      'mcp.servers.local.autoApprove',
      'mcp.servers.local.alwaysAllow',
      'mcp.servers.local.transportType',
    ])
    // A server of a transport Z Engine does not support (Claude Code's ws) is skipped on its own, by name.
    expect(listed.notices.find((notice) => notice.key === 'mcp.servers.broken')).toMatchObject({
      severity: 'warning',
      code: 'server_refused',
    })
  })

  it('skips an http server with oauth by name, and refuses one whose oauth Claude Code would refuse', async () => {
    const box = await project(
      JSON.stringify({
        mcpServers: {
          signin: {
            type: 'http',
            url: 'http://127.0.0.1:1/mcp',
            oauth: { clientId: 'abc', callbackPort: 8080 },
          },
          broken: { type: 'http', url: 'http://127.0.0.1:1/mcp', oauth: { callbackPort: 'x' } },
          local: { command: 'node', args: [FAULT_SERVER] },
        },
      }),
    )
    const listed = await mcpList(box)
    expect(listed.find('local')).toMatchObject({ status: 'ready' })
    expect(listed.find('signin')).toBeUndefined()
    expect(listed.find('broken')).toBeUndefined()
    expect(listed.notices.find((notice) => notice.key === 'mcp.servers.signin')).toMatchObject({
      severity: 'warning',
      code: 'server_refused',
      message: expect.stringContaining('sets "oauth"'),
    })
    expect(listed.notices.find((notice) => notice.key === 'mcp.servers.broken.oauth')).toMatchObject({
      severity: 'error',
      code: 'server_invalid',
      message: expect.stringContaining('field "oauth" .callbackPort must be a positive integer'),
    })
  })

  it('reports a .mcp.json that is not valid JSON (json_invalid) instead of showing nothing', async () => {
    const box = await project('{"mcpServers": {"a": {"command": "x",}}}')
    const listed = await mcpList(box)
    expect(listed.code).toBe(1)
    expect(listed.notices).toEqual([expect.objectContaining({ severity: 'error', code: 'json_invalid' })])
  })
})
