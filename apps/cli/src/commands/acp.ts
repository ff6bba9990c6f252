import { Readable, Writable } from 'node:stream'
import { ndJsonStream } from '@agentclientprotocol/sdk'
import { Engine } from '@z-engine/engine'
import type { PermissionMode } from '@z-engine/protocol'
import { createAcpAgent, SessionEventRouter } from '../acp/acp-agent.js'
import { parseCommandArgs } from '../args.js'
import { EXIT, UsageError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { parseModeFlag } from '../mode-flag.js'

const HELP = `Usage: z-engine acp [options]

Serves the Agent Client Protocol (https://agentclientprotocol.com) over stdio, for editors such as
Zed: JSON-RPC lines on stdin and stdout. Each session/new opens a session in its cwd; approvals are
asked through the editor (session/request_permission); session/cancel interrupts the turn.

Options:
  --model REF              the model of every session (default: settings); scripted:<file> for tests
  --permission-mode MODE   default, acceptEdits, plan, bypass (bypassPermissions)
  -h, --help               show this help
`

/** `z-engine acp`: an ACP agent on stdin/stdout until the client closes the connection. */
export async function main(io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.argv, {
    model: { type: 'string' },
    'permission-mode': { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout.write(HELP)
    return EXIT.ok
  }
  if (positionals.length > 0)
    throw new UsageError(`z-engine acp takes no arguments (got '${positionals[0]}').`)
  const mode: PermissionMode | undefined = parseModeFlag(values['permission-mode'])
  const events = new SessionEventRouter()
  const engine = await Engine.create({ env: io.env, onEvent: events.publish })
  const app = createAcpAgent({
    engine,
    events,
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(mode !== undefined ? { mode } : {}),
  })
  // stdout carries the protocol only: anything else the process prints goes to stderr.
  const connection = app.connect(
    ndJsonStream(
      Writable.toWeb(io.stdout as Writable) as WritableStream<Uint8Array>,
      Readable.toWeb(io.stdin as Readable) as ReadableStream<Uint8Array>,
    ),
  )
  await connection.closed.catch((error: unknown) => {
    io.stderr.write(`z-engine acp: ${error instanceof Error ? error.message : String(error)}\n`)
  })
  await engine.shutdown()
  return EXIT.ok
}
