// A program written for the Claude Agent SDK, run against the packed libraries by
// test/packaging/libraries.test.ts: only its import differs. An in-process MCP tool whose input a
// hook rewrites, a Bash call canUseTool denies, a resumed second prompt, over the scripted Anthropic
// wire server with the real Anthropic SDK (installed by the app, as the engine's optional peer). Then
// a query on an OpenAI model, whose SDK this app did not install, must say how to install it.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  createSdkMcpServer,
  type Options,
  query,
  type SDKMessage,
  type SDKResultMessage,
  tool,
} from '@z-engine/engine/claude-agent-sdk'
import { startScriptedServer } from '@z-engine/engine/testing'
import { z } from 'zod'

async function last(messages: AsyncIterable<SDKMessage>): Promise<SDKResultMessage> {
  let result: SDKMessage | undefined
  for await (const message of messages) result = message
  if (result?.type !== 'result') throw new Error('no result message')
  return result
}

async function main(): Promise<void> {
  const cwd = mkdtempSync(join(tmpdir(), 'z-sdk-app-'))
  const server = await startScriptedServer([
    {
      blocks: [
        { type: 'tool_use', name: 'mcp__weather__get_weather', input: { city: 'Oslo' } },
        { type: 'tool_use', name: 'Bash', input: { command: 'rm -rf build' } },
      ],
    },
    { blocks: [{ type: 'text', text: 'Sunny in Bergen.' }] },
    { blocks: [{ type: 'text', text: 'Still sunny.' }] },
  ])
  const cities: string[] = []
  const weather = createSdkMcpServer({
    name: 'weather',
    version: '1.0.0',
    tools: [
      tool('get_weather', 'The weather in a city.', { city: z.string() }, async ({ city }) => {
        cities.push(city)
        return { content: [{ type: 'text', text: `Sunny in ${city}` }] }
      }),
    ],
  })
  const options: Options = {
    cwd,
    model: 'claude-sonnet-4-6',
    env: { ANTHROPIC_API_KEY: 'x', ANTHROPIC_BASE_URL: server.url, OPENAI_API_KEY: 'x', HOME: cwd },
    mcpServers: { weather },
    allowedTools: ['mcp__weather__get_weather'],
    canUseTool: async (toolName, input) =>
      toolName === 'Bash'
        ? { behavior: 'deny', message: 'No shell here.' }
        : { behavior: 'allow', updatedInput: input },
    hooks: {
      PreToolUse: [
        {
          matcher: 'mcp__weather__.*',
          hooks: [
            async () => ({
              hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { city: 'Bergen' } },
            }),
          ],
        },
      ],
    },
  }
  const first = await last(query({ prompt: 'What is the weather?', options }))
  const second = await last(
    query({ prompt: 'And tomorrow?', options: { ...options, resume: first.session_id } }),
  )
  const missing = await last(query({ prompt: 'Hi', options: { ...options, model: 'openai/gpt-5' } }))
  await server.close()
  console.log(
    JSON.stringify({
      first: first.result,
      denied: first.permission_denials.map((denial) => denial.tool_name),
      cities,
      resumed: second.session_id === first.session_id ? second.result : 'another session',
      missing: { is_error: missing.is_error, text: JSON.stringify(missing) },
    }),
  )
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
