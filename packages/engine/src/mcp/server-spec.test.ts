// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings hold literal ${VAR} references to expand.
import { describe, expect, it } from 'vitest'
import { parseMcpJsonLayer } from '../workspace/settings/mcp-json-layer.js'
import { resolveServerSpecs } from './server-spec.js'

describe('resolveServerSpecs', () => {
  const env = { TOKEN: 't0k', HOME: '/home/u' }

  it('infers the transport, expands ${VAR} and ${VAR:-default}, runs stdio servers in the project root', () => {
    const { specs, problems } = resolveServerSpecs(
      {
        files: {
          command: 'npx',
          args: ['-y', 'server', '${HOME}/docs'],
          env: { KEY: '${TOKEN}', PORT: '${PORT:-8080}' },
        },
        api: { url: 'https://api.example/mcp', headers: { Authorization: 'Bearer ${TOKEN}' } },
        legacy: { type: 'sse', url: '${BASE:-http://localhost:9000}/sse', timeout_ms: 5000 },
        sub: { command: 'node', cwd: 'tools' },
        off: { command: 'x', enabled: false },
      },
      env,
      '/project',
    )
    expect(problems).toEqual([])
    expect(specs).toEqual([
      {
        name: 'files',
        transport: 'stdio',
        command: 'npx',
        args: ['-y', 'server', '/home/u/docs'],
        env: { KEY: 't0k', PORT: '8080' },
        cwd: '/project',
        timeoutMs: 30_000,
      },
      {
        name: 'api',
        transport: 'http',
        url: 'https://api.example/mcp',
        headers: { Authorization: 'Bearer t0k' },
        timeoutMs: 30_000,
      },
      { name: 'legacy', transport: 'sse', url: 'http://localhost:9000/sse', headers: {}, timeoutMs: 5000 },
      {
        name: 'sub',
        transport: 'stdio',
        command: 'node',
        args: [],
        env: {},
        cwd: '/project/tools',
        timeoutMs: 30_000,
      },
    ])
  })

  it('skips broken entries with the field at fault and warns about unset variables', () => {
    const { specs, problems } = resolveServerSpecs(
      {
        none: {},
        http: { type: 'http' },
        stdio: { type: 'stdio', url: 'http://x' },
        'bad name': { command: 'x' },
        ftp: { url: 'ftp://x' },
        secret: { command: 'run', env: { KEY: '${MISSING}' } },
      },
      env,
      '/p',
    )
    expect(specs.map((spec) => spec.name)).toEqual(['secret'])
    expect(problems.map((problem) => [problem.server, problem.field, problem.severity])).toEqual([
      ['none', 'command', 'error'],
      ['http', 'url', 'error'],
      ['stdio', 'command', 'error'],
      ['bad name', 'name', 'error'],
      ['ftp', 'url', 'error'],
      ['secret', 'env', 'warning'],
    ])
    expect(problems.at(-1)!.message).toContain('${MISSING} is not set')
  })
})

describe('.mcp.json as a settings layer', () => {
  it("reads Claude Code's format: implicit stdio, streamable-http alias", () => {
    const layer = parseMcpJsonLayer(
      '/p/.mcp.json',
      JSON.stringify({
        mcpServers: {
          fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] },
          web: { type: 'http', url: 'http://localhost:3001/mcp', headers: { 'X-Key': '${KEY}' } },
          alias: { type: 'streamable-http', url: 'http://localhost/mcp' },
        },
      }),
    )
    expect(layer).toMatchObject({ name: 'mcpJson', present: true, notices: [] })
    expect(layer.data).toEqual({
      mcp: {
        servers: {
          fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] },
          web: { type: 'http', url: 'http://localhost:3001/mcp', headers: { 'X-Key': '${KEY}' } },
          alias: { type: 'http', url: 'http://localhost/mcp' },
        },
      },
    })
  })

  it('skips by name what Claude Code refuses or Z Engine cannot run: url without type, ws, headersHelper, oauth', () => {
    const layer = parseMcpJsonLayer(
      '/p/.mcp.json',
      JSON.stringify({
        mcpServers: {
          untyped: { url: 'http://localhost:3001/mcp' },
          socket: { type: 'ws', url: 'ws://localhost:3002' },
          helper: { type: 'http', url: 'http://localhost/mcp', headersHelper: './auth.sh' },
          signin: {
            type: 'http',
            url: 'http://localhost/mcp',
            oauth: { clientId: 'abc', callbackPort: 8080 },
          },
          badOauth: { type: 'http', url: 'http://localhost/mcp', oauth: 'yes' },
          badPort: { type: 'sse', url: 'http://localhost/sse', oauth: { callbackPort: 'x' } },
          ok: { type: 'sse', url: 'http://localhost/sse' },
        },
      }),
    )
    expect(Object.keys(layer.data.mcp?.servers ?? {})).toEqual(['ok'])
    expect(layer.notices.map((entry) => [entry.key, entry.code, entry.severity])).toEqual([
      ['mcp.servers.untyped', 'server_refused', 'warning'],
      ['mcp.servers.socket', 'server_refused', 'warning'],
      ['mcp.servers.helper', 'server_refused', 'warning'],
      ['mcp.servers.signin', 'server_refused', 'warning'],
      ['mcp.servers.badOauth.oauth', 'server_invalid', 'error'],
      ['mcp.servers.badPort.oauth', 'server_invalid', 'error'],
    ])
    expect(layer.notices[3]!.message).toContain('server "signin" sets "oauth"')
    expect(layer.notices[4]!.message).toBe(
      '/p/.mcp.json: server "badOauth": field "oauth" must be an object such as {"clientId": "…", "callbackPort": 8080}; this server is skipped (as Claude Code skips it)',
    )
    expect(layer.notices[5]!.message).toContain('field "oauth" .callbackPort must be a positive integer')
    expect(layer.notices[0]!.message).toContain('has a "url" but no "type"')
    expect(layer.notices[1]!.message).toContain('"ws" (WebSocket) transport')
    expect(layer.notices[2]!.message).toContain('"headersHelper"')
  })

  it('skips an invalid server with a notice naming file, server and field; the rest load', () => {
    const layer = parseMcpJsonLayer(
      '/p/.mcp.json',
      JSON.stringify({
        mcpServers: {
          good: { command: 'a' },
          bad: { command: 'b', args: 'not-a-list' },
          odd: { command: 'c', oauth: {} },
        },
      }),
    )
    expect(Object.keys((layer.data as { mcp: { servers: object } }).mcp.servers)).toEqual(['good', 'odd'])
    expect(layer.notices.map((notice) => notice.message)).toEqual([
      expect.stringMatching(/^\/p\/\.mcp\.json: server "bad": field "args" .*; this server is skipped$/),
      '/p/.mcp.json: server "odd": field "oauth" is not supported; it is ignored',
    ])
    expect(layer.notices[0]).toMatchObject({ severity: 'error', key: 'mcp.servers.bad.args' })
  })

  it('skips a file that is not JSON or has no mcpServers', () => {
    expect(parseMcpJsonLayer('/p/.mcp.json', '{').notices[0]!.message).toContain('is not valid JSON')
    expect(parseMcpJsonLayer('/p/.mcp.json', '{"servers": {}}').notices[0]!.message).toContain('"mcpServers"')
  })
})
