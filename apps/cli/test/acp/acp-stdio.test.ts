/**
 * `z-engine acp` as an editor runs it: a child process speaking newline-delimited JSON-RPC on its
 * stdin and stdout, driven by the SDK's client side, with a scripted model file.
 */
import { spawn } from 'node:child_process'
import { existsSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { Readable, Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import {
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type RequestPermissionRequest,
} from '@agentclientprotocol/sdk'
import { afterEach, describe, expect, it } from 'vitest'
import { drain, tempDir } from './harness.js'

const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../dist/bin.js')
const children: Array<ReturnType<typeof spawn>> = []

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill()
})

describe('z-engine acp over stdio', () => {
  it('serves a prompt with a permission round trip to a spawned CLI', async () => {
    const home = tempDir('ze-acp-stdio-home-')
    const project = tempDir('ze-acp-stdio-proj-')
    const script = join(home, 'script.jsonl')
    writeFileSync(
      script,
      [
        JSON.stringify({
          blocks: [
            { type: 'text', text: 'Making it.' },
            { type: 'tool_use', id: 'call-1', name: 'Bash', input: { command: 'printf via-acp > acp.txt' } },
          ],
        }),
        JSON.stringify({ blocks: [{ type: 'text', text: 'Done over stdio.' }] }),
      ].join('\n'),
    )
    // The built CLI: prompts are bundled markdown, which only the build turns into modules.
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the stdio test.`)
    const child = spawn(process.execPath, [BIN, 'acp', '--model', `scripted:${script}`], {
      cwd: project,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        XDG_DATA_HOME: join(home, 'data'),
        XDG_CONFIG_HOME: join(home, 'config'),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    children.push(child)
    let stderr = ''
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8')
    })
    const asked: RequestPermissionRequest[] = []
    const connection = client({ name: 'stdio-test' })
      .onRequest(methods.client.session.requestPermission, ({ params }) => {
        asked.push(params)
        return { outcome: { outcome: 'selected', optionId: 'allowOnce' } }
      })
      .connect(
        ndJsonStream(
          Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
          Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
        ),
      )
    try {
      const init = await connection.agent.request(methods.agent.initialize, {
        protocolVersion: PROTOCOL_VERSION,
      })
      expect(init.agentInfo?.name).toBe('z-engine')
      const session = await connection.agent.buildSession(project).start()
      void session.prompt([{ type: 'text', text: 'make acp.txt' }])
      const { updates, stopReason } = await drain(session)
      expect(stopReason).toBe('end_turn')
      const said = updates
        .map((update) =>
          update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
            ? update.content.text
            : '',
        )
        .join('')
      expect(said).toBe('Making it.Done over stdio.')
      expect(asked.map((request) => request.toolCall.toolCallId)).toEqual(['call-1'])
      expect(existsSync(join(project, 'acp.txt'))).toBe(true)
    } catch (error) {
      throw new Error(`${error instanceof Error ? error.message : String(error)}\nstderr:\n${stderr}`)
    } finally {
      connection.close()
      child.stdin.end()
    }
    const code = await new Promise<number | null>((resolve) => {
      if (child.exitCode !== null) resolve(child.exitCode)
      else child.once('exit', resolve)
    })
    expect(code).toBe(0)
  })
})
