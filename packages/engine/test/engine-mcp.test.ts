/**
 * Issue 15 end to end on a real Engine: MCP servers from user settings and the project's
 * `.mcp.json` (server-everything and server-filesystem from npm, our SDK fault server), started in
 * the background, called through the one gate with approvals in default mode, stopped by a
 * `mcp__*` deny rule, withheld in untrusted workspaces, deferred above 40 tools with a stable
 * request prefix, and killed (by pid) when the session closes. The model is the only script.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { isProcessAlive } from '@z-engine/host'
import type { EngineEvent } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import type { Session } from '../src/index.js'
import { FAULT_SERVER, npmServerEntry } from '../src/mcp/mcp.test-util.js'
import type { ModelRequest } from '../src/model/types.js'
import { cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

const SPY_SERVER = join(dirname(FAULT_SERVER), 'spy-server.mjs')

const node = JSON.stringify(process.execPath)
const everything = `[mcp.servers.everything]\ncommand = ${node}\nargs = [${JSON.stringify(npmServerEntry('server-everything'))}, "stdio"]\n`

function project(mcpJson?: object): string {
  const root = tempDir('ze-mcp-')
  writeFileSync(join(root, 'README.md'), '# mcp\n')
  if (mcpJson) writeFileSync(join(root, '.mcp.json'), JSON.stringify(mcpJson, null, 2))
  return root
}

const fsServer = {
  mcpServers: { fs: { command: process.execPath, args: [npmServerEntry('server-filesystem'), '.'] } },
}

function userSettings(home: string, toml: string): void {
  mkdirSync(join(home, 'config'), { recursive: true })
  writeFileSync(join(home, 'config', 'settings.toml'), toml)
}

type T = Awaited<ReturnType<typeof engineWith>>
const notices = (t: T, session: Session) =>
  t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
async function waitForNotice(t: T, session: Session, pattern: RegExp): Promise<void> {
  await expect
    .poll(() => notices(t, session).some((message) => pattern.test(message)), { timeout: 30_000 })
    .toBe(true)
}
const tool = (name: string, input: Record<string, unknown>) => ({ type: 'tool_use' as const, name, input })
const finished = (events: EngineEvent[]) =>
  events.flatMap((event) => (event.type === 'toolFinished' ? [[event.toolName, event.status] as const] : []))

const bwrapInstalled = ['/usr/bin/bwrap', '/usr/local/bin/bwrap'].some((path) => existsSync(path))

describe('MCP servers in a session (issue 15)', () => {
  it.skipIf(!bwrapInstalled && process.env.CI === undefined)(
    'a stdio server runs confined: it cannot read ~/.npmrc, write outside the project or reach a socket in the home (issue 34)',
    async () => {
      const home = tempDir('ze-home-')
      const outside = tempDir('ze-outside-')
      writeFileSync(join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=NPMRC-SECRET\n')
      const socketPath = join(home, 'agent.sock')
      const listener = createServer((socket) => socket.end())
      await new Promise<void>((resolve) => listener.listen(socketPath, resolve))
      const root = project({
        mcpServers: {
          spy: {
            command: process.execPath,
            args: [SPY_SERVER, join(home, '.npmrc'), join(outside, 'escaped.txt'), socketPath],
          },
        },
      })
      const t = await engineWith(
        [{ blocks: [tool('mcp__spy__probe', {})] }, { blocks: [{ type: 'text', text: 'Done.' }] }],
        home,
      )
      await t.engine.trustWorkspace(root)
      const session = await t.engine.openSession({ projectRoot: root, model: 'scripted:x', mode: 'bypass' })
      await waitForNotice(t, session, /spy/).catch(() => undefined)
      session.send({ type: 'submit', text: 'Go.' })
      await t.waitFor(session, 'turnFinished')
      const output = t
        .events(session, 'toolFinished')
        .map((event) => (event.type === 'toolFinished' ? event.output : ''))
        .join('\n')
      // The socket is not in the view, and no unix socket can be made at all (the seccomp filter).
      expect(output).toMatch(/read=ENOENT write=(ENOENT|EROFS) socket=EPERM/)
      expect(output).not.toContain('NPMRC-SECRET')
      expect(existsSync(join(outside, 'escaped.txt'))).toBe(false)
      await t.engine.shutdown()
      await new Promise<void>((resolve) => listener.close(() => resolve()))
    },
    60_000,
  )

  it('calls mcp__everything__echo and a filesystem-server tool through the gate with approvals in default mode; closing leaves no server process', async () => {
    const root = project(fsServer)
    const home = tempDir('ze-home-')
    userSettings(home, everything)
    const t = await engineWith(
      [
        {
          blocks: [
            tool('mcp__everything__echo', { message: 'hello' }),
            tool('mcp__fs__write_file', { path: join(root, 'out.txt'), content: 'written by MCP' }),
          ],
        },
        { blocks: [{ type: 'text', text: 'Done.' }] },
      ],
      home,
    )
    await t.engine.trustWorkspace(root)
    const session = await t.engine.openSession({ projectRoot: root, model: 'scripted:x' })
    await waitForNotice(t, session, /MCP server everything is ready/)
    await waitForNotice(t, session, /MCP server fs is ready/)
    session.send({ type: 'submit', text: 'Use the MCP tools.' })
    // Answer every approval (allow once) as it comes, until the turn ends.
    const answered = new Set<string>()
    while (t.events(session, 'turnFinished').length === 0) {
      for (const event of t.events(session, 'approvalRequested')) {
        if (event.type !== 'approvalRequested' || answered.has(event.request.id)) continue
        answered.add(event.request.id)
        session.send({
          type: 'resolveApproval',
          approvalId: event.request.id,
          decision: { type: 'allowOnce' },
        })
      }
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    // Both calls asked (MCP tools ask in default mode, read-only hint or not) and ran.
    const requested = t
      .events(session, 'approvalRequested')
      .map((event) => (event.type === 'approvalRequested' ? event.request.toolName : ''))
    expect(requested.sort()).toEqual(['mcp__everything__echo', 'mcp__fs__write_file'])
    // The card shows what the call would send (issue 34: a write-capable tool is never approved blind).
    const writeCard = t
      .events(session, 'approvalRequested')
      .find((event) => event.type === 'approvalRequested' && event.request.toolName === 'mcp__fs__write_file')
    const preview = writeCard?.type === 'approvalRequested' ? writeCard.request.preview : undefined
    expect(preview?.type).toBe('text')
    expect(preview?.type === 'text' ? preview.text : '').toContain('written by MCP')
    expect(preview?.type === 'text' ? preview.text : '').toContain(join(root, 'out.txt'))
    expect(finished(t.events(session))).toEqual([
      ['mcp__everything__echo', 'ok'],
      ['mcp__fs__write_file', 'ok'],
    ])
    expect(readFileSync(join(root, 'out.txt'), 'utf8')).toBe('written by MCP')
    const second = t.client.requests[1]!
    expect(JSON.stringify(second.messages.at(-1))).toContain('Echo: hello')
    const offered = t.client.requests[0]!.tools.map((spec) => spec.name)
    expect(offered).toContain('ListMcpResources')
    expect(offered.filter((name) => name.startsWith('mcp__fs__'))).toContain('mcp__fs__write_file')

    session.send({ type: 'runCommand', name: 'mcp', args: '' })
    const output = (await t.waitFor(session, 'commandOutput')) as Extract<
      EngineEvent,
      { type: 'commandOutput' }
    >
    expect(output.markdown).toMatch(/\*\*everything\*\* \(stdio\): ready · \d+ tools/)
    const pids = [...output.markdown.matchAll(/pid (\d+)/g)].map((match) => Number(match[1]))
    expect(pids).toHaveLength(2)
    expect(pids.every(isProcessAlive)).toBe(true)
    await t.engine.shutdown()
    expect(pids.some(isProcessAlive)).toBe(false)
  })

  it('a mcp__* deny rule stops every MCP call, resource tools included, without asking', async () => {
    const root = project()
    const home = tempDir('ze-home-')
    userSettings(home, `${everything}\n[permissions]\ndeny = ["mcp__*"]\n`)
    const t = await engineWith(
      [
        { blocks: [tool('mcp__everything__echo', { message: 'x' }), tool('ListMcpResources', {})] },
        { blocks: [{ type: 'text', text: 'Denied.' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: root, model: 'scripted:x' })
    await waitForNotice(t, session, /MCP server everything is ready/)
    session.send({ type: 'submit', text: 'Try.' })
    await t.waitFor(session, 'turnFinished')
    expect(t.events(session, 'approvalRequested')).toEqual([])
    expect(finished(t.events(session))).toEqual([
      ['mcp__everything__echo', 'denied'],
      ['ListMcpResources', 'denied'],
    ])
    await t.engine.shutdown()
  })

  it('@server:uri mentions in a prompt attach the resource; an unknown server or a failed read is a notice and the prompt still goes', async () => {
    const root = project()
    const home = tempDir('ze-home-')
    userSettings(home, everything)
    const t = await engineWith([{ blocks: [{ type: 'text', text: 'Read it.' }] }], home)
    const session = await t.engine.openSession({ projectRoot: root, model: 'scripted:x' })
    // Sent at once: the mention waits for its server to start.
    session.send({
      type: 'submit',
      text: 'Summarize @everything:demo://resource/static/document/architecture.md and @nosuch:demo://x, also @everything:demo://resource/static/document/missing.md.',
    })
    await t.waitFor(session, 'turnFinished')
    const sent = JSON.stringify(t.client.requests[0]!.messages.at(-1))
    expect(sent).toContain('Summarize @everything:demo://resource/static/document/architecture.md')
    expect(sent).toContain(
      '<mcp-resource server=\\"everything\\" uri=\\"demo://resource/static/document/architecture.md\\">',
    )
    expect(sent).not.toContain('uri=\\"demo://x')
    const said = notices(t, session)
    expect(said).toContainEqual(
      expect.stringMatching(
        /^@nosuch:demo:\/\/x was not attached: there is no MCP server named nosuch \(servers: everything\)/,
      ),
    )
    expect(said).toContainEqual(
      expect.stringMatching(
        /^@everything:demo:\/\/resource\/static\/document\/missing\.md was not attached: /,
      ),
    )
    await t.engine.shutdown()
  })

  it(".mcp.json servers are withheld in an untrusted workspace (a notice names them); the user's still start", async () => {
    const root = project(fsServer)
    const home = tempDir('ze-home-')
    userSettings(home, everything)
    const t = await engineWith([{ blocks: [{ type: 'text', text: 'Hi.' }] }], home)
    const session = await t.engine.openSession({ projectRoot: root, model: 'scripted:x' })
    expect(t.events(session, 'trustRequired')).toMatchObject([{ categories: ['mcp_servers'] }])
    expect(notices(t, session)).toContain(
      "This project's MCP server fs is withheld until you trust the workspace.",
    )
    await waitForNotice(t, session, /MCP server everything is ready/)
    session.send({ type: 'runCommand', name: 'mcp', args: '' })
    const output = (await t.waitFor(session, 'commandOutput')) as Extract<
      EngineEvent,
      { type: 'commandOutput' }
    >
    expect(output.markdown).toContain('**everything**')
    expect(output.markdown).not.toContain('**fs**')
    await t.engine.shutdown()
  })

  it('the first model request does not wait for a slow server; its tools join between rounds', async () => {
    // The server becomes ready only once the first request has left (the test creates `start-mcp`
    // then); the second round's command waits until the engine reported it ready (`mcp-ready`), so
    // the third request is the first one that can carry its tools — on any machine, at any speed.
    const root = project({
      mcpServers: { slow: { command: process.execPath, args: [FAULT_SERVER, '--start-when=start-mcp'] } },
    })
    const t = await engineWith((_request, index) => {
      if (index === 0) writeFileSync(join(root, 'start-mcp'), '')
      if (index === 0) return { blocks: [tool('Bash', { command: 'true', description: 'nothing' })] }
      if (index === 1) {
        const command = 'while [ ! -e mcp-ready ]; do sleep 0.05; done'
        return { blocks: [tool('Bash', { command, description: 'wait' })] }
      }
      return { blocks: [{ type: 'text', text: 'Done.' }] }
    })
    await t.engine.trustWorkspace(root)
    const session = await t.engine.openSession({ projectRoot: root, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'Go.' })
    await waitForNotice(t, session, /MCP server slow is ready/)
    writeFileSync(join(root, 'mcp-ready'), '')
    await t.waitFor(session, 'turnFinished')
    const names = (request: ModelRequest) => request.tools.map((spec) => spec.name)
    expect(names(t.client.requests[0]!).some((name) => name.startsWith('mcp__'))).toBe(false)
    expect(names(t.client.requests.at(-1)!)).toContain('mcp__slow__echo')
    // The MCP tools are appended: the earlier list is a prefix of the later one.
    const first = names(t.client.requests[0]!)
    expect(names(t.client.requests.at(-1)!).slice(0, first.length)).toEqual(first)
    await t.engine.shutdown()
  })

  it('60 tools defer: LoadMcpTools loads two by name from the next request on, and every request extends the previous one (prefix stability 1.0)', async () => {
    const root = project()
    const home = tempDir('ze-home-')
    userSettings(
      home,
      `[mcp.servers.bulk]\ncommand = ${node}\nargs = [${JSON.stringify(FAULT_SERVER)}, "--tools=60"]\n\n[permissions]\nallow = ["mcp__bulk"]\n`,
    )
    const t = await engineWith(
      [
        { blocks: [tool('LoadMcpTools', { names: ['mcp__bulk__t07', 'mcp__bulk__t42'] })] },
        { blocks: [tool('mcp__bulk__t07', { n: 7 }), tool('mcp__bulk__t42', { n: 42 })] },
        { blocks: [tool('Read', { file_path: join(root, 'README.md') })] },
        { blocks: [{ type: 'text', text: 'Done.' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: root, model: 'scripted:x' })
    await waitForNotice(t, session, /MCP server bulk is ready: 66 tools/)
    session.send({ type: 'submit', text: 'Use bulk tools.' })
    await t.waitFor(session, 'turnFinished')
    expect(finished(t.events(session))).toEqual([
      ['LoadMcpTools', 'ok'],
      ['mcp__bulk__t07', 'ok'],
      ['mcp__bulk__t42', 'ok'],
      ['Read', 'ok'],
    ])
    const requests = t.client.requests
    const names = requests.map((request) => request.tools.map((spec) => spec.name))
    expect(names[0]!.at(-1)).toBe('LoadMcpTools')
    expect(names[0]!.some((name) => name.startsWith('mcp__'))).toBe(false)
    expect(names[1]!.slice(names[0]!.length)).toEqual(['mcp__bulk__t07', 'mcp__bulk__t42'])
    // The deferral reminder went out with the first user message, listing every deferred tool.
    const firstUser = JSON.stringify(requests[0]!.messages[0])
    expect(firstUser).toContain('mcp__bulk__t60: Bulk tool 60.')
    // Prefix stability: system identical; tools only ever appended; messages extend the previous request's.
    let stable = 0
    for (let index = 1; index < requests.length; index++) {
      const previous = requests[index - 1]!
      const next = requests[index]!
      const sameSystem = JSON.stringify(next.system) === JSON.stringify(previous.system)
      const toolsExtend =
        JSON.stringify(next.tools.slice(0, previous.tools.length)) === JSON.stringify(previous.tools)
      const messagesExtend = previous.messages.every(
        (message, m) => JSON.stringify(next.messages[m]) === JSON.stringify(message),
      )
      if (sameSystem && toolsExtend && messagesExtend) stable += 1
    }
    expect(stable / (requests.length - 1)).toBe(1)
    await t.engine.shutdown()
  })
})
