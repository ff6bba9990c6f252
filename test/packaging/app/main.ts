// An embedder's program, type-checked (strict) and run against the packed libraries by
// test/packaging/libraries.test.ts: a custom tool whose input a hook function rewrites, a Read and
// a Bash call that canUseTool sees (it denies the Bash), all driven by the scripted model.
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
// The protocol types come through the engine's entry: an embedder needs no second package.
import {
  type CanUseTool,
  defineTool,
  Engine,
  type EventEnvelope,
  run,
  type ToolStatus,
} from '@z-engine/engine'
import { ScriptedClient } from '@z-engine/engine/testing'

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'z-app-'))
  writeFileSync(join(root, 'notes.txt'), 'hello\n')
  const cities: string[] = []
  const weather = defineTool({
    name: 'weather',
    description: 'The weather in a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    readOnly: true,
    execute: (input) => {
      cities.push(String(input.city))
      return `sunny in ${String(input.city)}`
    },
  })
  const seen: string[] = []
  const canUseTool: CanUseTool = (request) => {
    seen.push(request.toolName)
    return request.toolName === 'Bash'
      ? { behavior: 'deny', message: 'no shell here' }
      : { behavior: 'allow' }
  }
  const client = new ScriptedClient([
    {
      blocks: [
        { type: 'tool_use', name: 'weather', input: { city: 'Oslo' } },
        { type: 'tool_use', name: 'Read', input: { file_path: join(root, 'notes.txt') } },
        { type: 'tool_use', name: 'Bash', input: { command: 'echo hi' } },
      ],
    },
    { blocks: [{ type: 'text', text: 'all done' }] },
  ])
  const engine = await Engine.create({
    dataDir: join(root, 'data'),
    configDir: join(root, 'config'),
    home: root,
    env: {},
    tools: [weather],
    canUseTool,
    hooks: {
      PreToolUse: [
        {
          matcher: '^weather$',
          hook: () => ({
            hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { city: 'Bergen' } },
          }),
        },
      ],
    },
    clientFactory: { createClient: () => ({ ok: true, client, provider: 'scripted', model: 'scripted' }) },
  })
  const session = await engine.openSession({ projectRoot: root })
  const events: AsyncIterable<EventEnvelope> = session.events()
  session.send({ type: 'submit', text: 'check the weather' })
  const statuses: Record<string, ToolStatus> = {}
  let text = ''
  for await (const { event } of events) {
    if (event.type === 'toolFinished') statuses[event.toolName] = event.status
    if (event.type === 'textDelta') text += event.delta
    if (event.type === 'turnFinished') break
  }
  await engine.shutdown()

  // run() in default mode with no callbacks: the Write that would ask is denied, never awaited.
  const writer = new ScriptedClient([
    {
      blocks: [
        { type: 'tool_use', name: 'Write', input: { file_path: join(root, 'out.txt'), content: 'x' } },
      ],
    },
    { blocks: [{ type: 'text', text: 'could not write' }] },
  ])
  const result = await run({
    prompt: 'write out.txt',
    cwd: root,
    isolated: true,
    clientFactory: {
      createClient: () => ({ ok: true, client: writer, provider: 'scripted', model: 'scripted' }),
    },
  })
  const denial = JSON.stringify(writer.requests[1]?.messages.at(-1)?.content).includes(
    'run() was called without onApproval',
  )
  console.log(
    JSON.stringify({
      statuses,
      seen,
      cities,
      text,
      run: { outcome: result.outcome.type, text: result.text, denial },
    }),
  )
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
