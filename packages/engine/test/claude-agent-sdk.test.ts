/**
 * Issue 16 item 8: a program written for the Claude Agent SDK's `query()` — an in-process SDK MCP
 * tool, canUseTool, a PreToolUse hook, resume — runs against the engine by changing only its import,
 * over the scripted Anthropic wire server with the real Anthropic SDK.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
// The only line that differs from the Claude Agent SDK program: the module it imports.
import {
  createSdkMcpServer,
  getSessionInfo,
  getSessionMessages,
  type HookInput,
  listSessions,
  type Options,
  query,
  type SDKMessage,
  type SDKResultMessage,
  type SDKUserMessage,
  tool,
} from '@z-engine/engine/claude-agent-sdk'
import { describe, expect, it, vi } from 'vitest'
import { z } from 'zod'
import { startScriptedServer } from '../src/testing.js'
import { cleanupTempDirs, tempDir } from './engine-harness.js'

cleanupTempDirs()

/** Every field of the Claude Agent SDK's result message (with the optional ones `claude -p` writes). */
const RESULT_FIELDS = [
  'api_error_status',
  'duration_api_ms',
  'duration_ms',
  'fast_mode_disabled_reason',
  'fast_mode_state',
  'first_content_frame_ms',
  'is_error',
  'modelUsage',
  'num_turns',
  'permission_denials',
  'result',
  'session_id',
  'stop_reason',
  'subtype',
  'terminal_reason',
  'time_to_request_ms',
  'total_cost_usd',
  'ttft_ms',
  'ttft_stream_ms',
  'type',
  'usage',
  'uuid',
]

async function collect(messages: AsyncIterable<SDKMessage>): Promise<SDKMessage[]> {
  const all: SDKMessage[] = []
  for await (const message of messages) all.push(message)
  return all
}

describe('the Claude Agent SDK query() over the engine', () => {
  it('runs an SDK MCP tool, asks canUseTool only for what would ask, applies a hook, reports denials, and resumes', async () => {
    const project = tempDir('ze-cas-project-')
    const home = tempDir('ze-cas-home-')
    writeFileSync(join(project, 'notes.txt'), 'remember the milk\n')
    const server = await startScriptedServer([
      {
        blocks: [
          { type: 'tool_use', name: 'mcp__weather__get_weather', input: { city: 'Oslo' } },
          { type: 'tool_use', name: 'Bash', input: { command: 'rm -rf build' } },
          { type: 'tool_use', name: 'Read', input: { file_path: join(project, 'notes.txt') } },
        ],
      },
      { blocks: [{ type: 'text', text: 'It is sunny in Bergen.' }] },
      { blocks: [{ type: 'text', text: 'Still sunny tomorrow.' }] },
    ])
    try {
      // --- the program, as written for @anthropic-ai/claude-agent-sdk ---
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
      const asked: string[] = []
      const hookInputs: HookInput[] = []
      const options: Options = {
        cwd: project,
        model: 'claude-sonnet-4-6',
        env: { ANTHROPIC_API_KEY: 'x', ANTHROPIC_BASE_URL: server.url, PATH: process.env.PATH, HOME: home },
        mcpServers: { weather },
        allowedTools: ['mcp__weather__get_weather'],
        permissionMode: 'default',
        maxTurns: 10,
        systemPrompt: { type: 'preset', preset: 'claude_code', append: 'Answer in one sentence.' },
        canUseTool: async (toolName, input) => {
          asked.push(toolName)
          return toolName === 'Bash'
            ? { behavior: 'deny', message: 'No shell in this app.' }
            : { behavior: 'allow', updatedInput: input }
        },
        hooks: {
          PreToolUse: [
            {
              matcher: 'mcp__weather__.*',
              hooks: [
                async (input) => {
                  hookInputs.push(input)
                  return {
                    hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: { city: 'Bergen' } },
                  }
                },
              ],
            },
          ],
        },
      }
      const first = await collect(query({ prompt: 'What is the weather?', options }))
      // --- end of the program ---

      const init = first[0]
      expect(init).toMatchObject({
        type: 'system',
        subtype: 'init',
        cwd: expect.any(String),
        model: 'claude-sonnet-4-6',
      })
      if (init?.type !== 'system') throw new Error('no init message')
      expect(init.tools).toEqual(expect.arrayContaining(['Read', 'Bash', 'mcp__weather__get_weather']))
      expect(init.mcp_servers).toEqual([{ name: 'weather', status: 'connected' }])
      expect(init.permissionMode).toBe('default')

      const assistant = first.filter((message) => message.type === 'assistant')
      expect(assistant).toHaveLength(2)
      expect(assistant[0]?.message.content.map((block) => block.type)).toEqual([
        'tool_use',
        'tool_use',
        'tool_use',
      ])
      expect(assistant[0]?.message.usage.output_tokens).toBeGreaterThan(0)

      const results = first.flatMap((message) =>
        message.type === 'user' && typeof message.message.content !== 'string' ? message.message.content : [],
      )
      const byTool = (id: string | undefined) =>
        results.find((block) => 'tool_use_id' in block && block.tool_use_id === id)
      const calls = assistant[0]?.message.content.filter((block) => block.type === 'tool_use') ?? []
      const [weatherCall, bashCall, readCall] = calls.map((call) =>
        call.type === 'tool_use' ? call : undefined,
      )
      expect(JSON.stringify(byTool(weatherCall?.id))).toContain('Sunny in Bergen')
      expect(byTool(bashCall?.id)).toMatchObject({ is_error: true })
      expect(JSON.stringify(byTool(bashCall?.id))).toContain('No shell in this app.')
      expect(JSON.stringify(byTool(readCall?.id))).toContain('remember the milk')

      // The hook rewrote the input the tool ran with, and saw Claude Code's snake_case fields.
      expect(cities).toEqual(['Bergen'])
      expect(hookInputs[0]).toMatchObject({
        hook_event_name: 'PreToolUse',
        tool_name: 'mcp__weather__get_weather',
        tool_input: { city: 'Oslo' },
        session_id: init.session_id,
      })
      // canUseTool sees only what would ask: not the allowed MCP tool, not the read-only Read.
      expect(asked).toEqual(['Bash'])

      const result = first.at(-1) as SDKResultMessage
      expect(Object.keys(result).sort()).toEqual(RESULT_FIELDS)
      expect(result).toMatchObject({
        type: 'result',
        subtype: 'success',
        is_error: false,
        result: 'It is sunny in Bergen.',
        num_turns: 2,
        session_id: init.session_id,
        permission_denials: [
          { tool_name: 'Bash', tool_use_id: bashCall?.id, tool_input: { command: 'rm -rf build' } },
        ],
      })
      expect(result.usage.input_tokens).toBeGreaterThan(0)
      expect(result.total_cost_usd).toBeGreaterThan(0)
      expect(result.modelUsage['claude-sonnet-4-6']?.outputTokens).toBeGreaterThan(0)
      // The appended system prompt reached the model.
      expect(JSON.stringify(server.requests[0]?.body.system)).toContain('Answer in one sentence.')

      // Resuming continues the same conversation.
      const second = await collect(
        query({ prompt: 'And tomorrow?', options: { ...options, resume: init.session_id } }),
      )
      const again = second.at(-1) as SDKResultMessage
      expect(again).toMatchObject({
        subtype: 'success',
        result: 'Still sunny tomorrow.',
        session_id: init.session_id,
      })
      expect(JSON.stringify(server.requests[2]?.body.messages)).toContain('What is the weather?')

      // The session helpers read the same store (the data folder under HOME).
      vi.stubEnv('HOME', home)
      vi.stubEnv('XDG_DATA_HOME', undefined)
      try {
        const listed = await listSessions({ dir: project })
        expect(listed.map((session) => session.sessionId)).toEqual([init.session_id])
        expect(await getSessionInfo(init.session_id)).toMatchObject({
          sessionId: init.session_id,
          lastModified: expect.any(Number),
        })
        expect(await getSessionInfo('no-such-session')).toBeUndefined()
        await expect(getSessionMessages(init.session_id)).rejects.toThrow(
          /getSessionMessages\(\) is not supported/,
        )
      } finally {
        vi.unstubAllEnvs()
      }
    } finally {
      await server.close()
    }
  })

  it('resolves a model alias through the catalog: the API gets the model id and the cost is priced', async () => {
    const project = tempDir('ze-cas-project-')
    const home = tempDir('ze-cas-home-')
    const server = await startScriptedServer([{ blocks: [{ type: 'text', text: 'Done.' }] }])
    try {
      const env = {
        ANTHROPIC_API_KEY: 'x',
        ANTHROPIC_BASE_URL: server.url,
        PATH: process.env.PATH,
        HOME: home,
      }
      const messages = await collect(query({ prompt: 'hi', options: { cwd: project, env, model: 'opus' } }))
      expect(server.requests[0]?.body.model).toBe('claude-opus-4-6')
      expect(messages[0]).toMatchObject({ type: 'system', subtype: 'init', model: 'claude-opus-4-6' })
      const result = messages.at(-1) as SDKResultMessage
      expect(result.total_cost_usd).toBeGreaterThan(0)
      expect(Object.keys(result.modelUsage)).toEqual(['claude-opus-4-6'])
    } finally {
      await server.close()
    }
  }, 60_000)

  it('switches to fallbackModel when the main model stays overloaded (529) after its retries, pricing both', async () => {
    const project = tempDir('ze-cas-project-')
    const home = tempDir('ze-cas-home-')
    const server = await startScriptedServer((request) =>
      request.body.model === 'claude-haiku-4-5'
        ? { blocks: [{ type: 'text', text: 'Done on the fallback.' }] }
        : {
            fault: {
              type: 'status',
              status: 529,
              body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
              headers: { 'retry-after': '0' },
            },
          },
    )
    try {
      const env = {
        ANTHROPIC_API_KEY: 'x',
        ANTHROPIC_BASE_URL: server.url,
        PATH: process.env.PATH,
        HOME: home,
      }
      const messages = await collect(
        query({ prompt: 'hi', options: { cwd: project, env, model: 'sonnet', fallbackModel: 'haiku' } }),
      )
      const models = server.requests.map((request) => request.body.model)
      expect(models.at(-1)).toBe('claude-haiku-4-5')
      expect(models.slice(0, -1).every((model) => model === 'claude-sonnet-4-6')).toBe(true)
      const result = messages.at(-1) as SDKResultMessage
      expect(result).toMatchObject({ type: 'result', subtype: 'success', result: 'Done on the fallback.' })
      expect(Object.keys(result.modelUsage)).toContain('claude-haiku-4-5')
    } finally {
      await server.close()
    }
  }, 120_000)

  it('streams Claude Code’s shapes and obeys the query’s controls: canUseTool options, aliased matchers, partial messages, UUIDs, setModel between streamed prompts, refused methods, dontAsk', async () => {
    const project = tempDir('ze-cas-project-')
    const home = tempDir('ze-cas-home-')
    const target = join(project, 'a.txt')
    const server = await startScriptedServer([
      {
        blocks: [
          { type: 'text', text: 'Writing.' },
          { type: 'tool_use', name: 'Write', input: { file_path: target, content: 'x' } },
        ],
      },
      { blocks: [{ type: 'text', text: 'Written.' }] },
      { blocks: [{ type: 'text', text: 'Still here.' }] },
      { blocks: [{ type: 'tool_use', name: 'Write', input: { file_path: target, content: 'z' } }] },
      { blocks: [{ type: 'text', text: 'Not written.' }] },
    ])
    try {
      const env = {
        ANTHROPIC_API_KEY: 'x',
        ANTHROPIC_BASE_URL: server.url,
        PATH: process.env.PATH,
        HOME: home,
      }
      const asked: Array<{ toolName: string; options: Parameters<NonNullable<Options['canUseTool']>>[2] }> =
        []
      const hooked: string[] = []
      let firstDone: () => void = () => {}
      const gate = new Promise<void>((resolve) => {
        firstDone = resolve
      })
      async function* prompts(): AsyncGenerator<SDKUserMessage> {
        yield {
          type: 'user',
          session_id: '',
          parent_tool_use_id: null,
          message: { role: 'user', content: 'Write a.txt' },
        }
        await gate
        yield {
          type: 'user',
          session_id: '',
          parent_tool_use_id: null,
          message: { role: 'user', content: 'Again?' },
        }
      }
      const q = query({
        prompt: prompts(),
        options: {
          cwd: project,
          env,
          includePartialMessages: true,
          canUseTool: async (toolName, input, options) => {
            asked.push({ toolName, options })
            return { behavior: 'allow', updatedInput: { ...input, content: 'y' } }
          },
          hooks: {
            PreToolUse: [
              {
                matcher: 'Task|Write',
                hooks: [
                  async (input) => {
                    hooked.push(String(input.tool_name))
                    return {}
                  },
                ],
              },
            ],
          },
        },
      })
      const messages: SDKMessage[] = []
      for await (const message of q) {
        messages.push(message)
        if (message.type === 'result' && messages.filter((m) => m.type === 'result').length === 1) {
          expect(await q.supportedModels()).toEqual(
            expect.arrayContaining([
              expect.objectContaining({ value: 'opus', resolvedModel: 'claude-opus-4-6' }),
            ]),
          )
          expect(await q.mcpServerStatus()).toEqual([])
          await expect(q.accountInfo()).rejects.toThrow(/Query.accountInfo\(\) is not supported/)
          await q.setModel('haiku')
          firstDone()
        }
      }
      const init = messages[0]
      expect(init).toMatchObject({
        type: 'system',
        subtype: 'init',
        claude_code_version: '2.1.332',
        skills: [],
        plugins: [],
        // The subagent types the Agent tool offers (the engine's built-ins here).
        agents: expect.arrayContaining(['explore', 'general', 'plan']),
      })
      const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
      for (const message of messages) expect(message.uuid, message.type).toMatch(uuid)
      // The file was written with the input canUseTool gave, and canUseTool saw Claude Code's options.
      expect(readFileSync(target, 'utf8')).toBe('y')
      expect(asked).toHaveLength(1)
      expect(asked[0]?.toolName).toBe('Write')
      expect(asked[0]?.options).toMatchObject({
        blockedPath: target,
        decisionReason: expect.any(String),
        toolUseID: expect.any(String),
        suggestions: [expect.objectContaining({ type: 'addRules', behavior: 'allow' })],
      })
      expect(asked[0]?.options.agentID).toBeUndefined()
      expect(hooked).toEqual(['Write'])
      // Partial messages open and close each streamed assistant message as the Messages API does.
      const streamed = messages.flatMap((m) => (m.type === 'stream_event' ? [m.event.type] : []))
      expect(streamed.slice(0, 5)).toEqual([
        'message_start',
        'content_block_start',
        'content_block_delta',
        'content_block_stop',
        'message_delta',
      ])
      expect(streamed).toContain('message_stop')
      // setModel between the streamed prompts: the second prompt went to Haiku.
      expect(server.requests[0]?.body.model).toBe('claude-sonnet-4-6')
      expect(server.requests[2]?.body.model).toBe('claude-haiku-4-5')

      // dontAsk: what would ask is denied without asking.
      const denied = await collect(
        query({
          prompt: 'Write it again',
          options: {
            cwd: project,
            env,
            permissionMode: 'dontAsk',
            canUseTool: async (toolName) => {
              asked.push({ toolName, options: { signal: new AbortController().signal, toolUseID: '' } })
              return { behavior: 'allow' }
            },
          },
        }),
      )
      expect(asked).toHaveLength(1)
      expect(denied[0]).toMatchObject({ permissionMode: 'dontAsk' })
      expect((denied.at(-1) as SDKResultMessage).permission_denials.map((d) => d.tool_name)).toEqual([
        'Write',
      ])
      expect(readFileSync(target, 'utf8')).toBe('y')
    } finally {
      await server.close()
    }
  }, 90_000)

  it('forks a session with resume + forkSession, and a PreToolUse hook blocks a call', async () => {
    const project = tempDir('ze-cas-project-')
    const home = tempDir('ze-cas-home-')
    const server = await startScriptedServer([
      { blocks: [{ type: 'text', text: 'First.' }] },
      { blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'rm -rf /tmp/x' } }] },
      { blocks: [{ type: 'text', text: 'Blocked, so not run.' }] },
    ])
    try {
      const env = {
        ANTHROPIC_API_KEY: 'x',
        ANTHROPIC_BASE_URL: server.url,
        PATH: process.env.PATH,
        HOME: home,
      }
      const first = await collect(query({ prompt: 'Remember: green.', options: { cwd: project, env } }))
      const firstId = (first.at(-1) as SDKResultMessage).session_id
      const forked = await collect(
        query({
          prompt: 'Clean up.',
          options: {
            cwd: project,
            env,
            resume: firstId,
            forkSession: true,
            permissionMode: 'bypassPermissions',
            hooks: {
              PreToolUse: [
                {
                  matcher: 'Bash',
                  hooks: [async () => ({ decision: 'block', reason: 'No deletions in this app.' })],
                },
              ],
            },
          },
        }),
      )
      const result = forked.at(-1) as SDKResultMessage
      expect(result).toMatchObject({ subtype: 'success', result: 'Blocked, so not run.' })
      expect(result.session_id).not.toBe(firstId)
      expect(JSON.stringify(server.requests[1]?.body.messages)).toContain('Remember: green.')
      expect(JSON.stringify(server.requests[2]?.body.messages)).toContain('No deletions in this app.')
    } finally {
      await server.close()
    }
  }, 90_000)

  it('denies what would ask when no canUseTool is given, and ends with error_max_turns at maxTurns', async () => {
    const project = tempDir('ze-cas-project-')
    const home = tempDir('ze-cas-home-')
    const server = await startScriptedServer([
      { blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch x' } }] },
      { blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'touch y' } }] },
    ])
    try {
      const messages = await collect(
        query({
          prompt: 'make files',
          options: {
            cwd: project,
            model: 'claude-sonnet-4-6',
            maxTurns: 1,
            env: {
              ANTHROPIC_API_KEY: 'x',
              ANTHROPIC_BASE_URL: server.url,
              PATH: process.env.PATH,
              HOME: home,
            },
          },
        }),
      )
      const result = messages.at(-1) as SDKResultMessage
      expect(result).toMatchObject({ type: 'result', subtype: 'error_max_turns', is_error: true })
      expect(result.permission_denials.map((denial) => denial.tool_name)).toEqual(['Bash'])
      expect(JSON.stringify(messages)).toContain('query() was called without canUseTool')
    } finally {
      await server.close()
    }
  })

  it('continues the latest session with continue, turns thinking on with maxThinkingTokens, refuses options it cannot honour and reports unknown ones', async () => {
    const project = tempDir('ze-cas-project-')
    const home = tempDir('ze-cas-home-')
    const server = await startScriptedServer([
      { blocks: [{ type: 'text', text: 'First answer.' }] },
      { blocks: [{ type: 'text', text: 'Second answer.' }] },
    ])
    try {
      const env = {
        ANTHROPIC_API_KEY: 'x',
        ANTHROPIC_BASE_URL: server.url,
        PATH: process.env.PATH,
        HOME: home,
      }
      const first = await collect(query({ prompt: 'Remember: blue.', options: { cwd: project, env } }))
      const firstId = (first.at(-1) as SDKResultMessage).session_id
      const stderr: string[] = []
      const second = await collect(
        query({
          prompt: 'Which colour?',
          options: {
            cwd: project,
            env,
            model: 'claude-sonnet-4-5',
            continue: true,
            maxThinkingTokens: 2048,
            // Steers Claude Code's child process: accepted quietly.
            pathToClaudeCodeExecutable: '/opt/claude/cli.js',
            // The SDK's default: accepted quietly.
            persistSession: true,
            stderr: (line) => stderr.push(line),
            ...({ madeUpOption: true } as object),
          },
        }),
      )
      const result = second.at(-1) as SDKResultMessage
      expect(result).toMatchObject({ subtype: 'success', result: 'Second answer.', session_id: firstId })
      expect(JSON.stringify(server.requests[1]?.body.messages)).toContain('Remember: blue.')
      expect(server.requests[1]?.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 })
      expect(stderr).toEqual([
        'options.madeUpOption is not a Claude Agent SDK option @z-engine/engine/claude-agent-sdk knows; it is ignored.\n',
      ])
      // Options the engine cannot honour are refused by name, with what to do instead.
      const refused = collect(
        query({
          prompt: 'Which colour?',
          options: { cwd: project, env, maxBudgetUsd: 1, betas: [] },
        }),
      )
      await expect(refused).rejects.toThrow(
        /cannot honour these options[\s\S]*options\.maxBudgetUsd[\s\S]*options\.betas/,
      )
    } finally {
      await server.close()
    }
  })
})
