/**
 * Issue 7 "Prefix stability" and spec 003 "Prompt caching": in a 30-round session over the scripted
 * HTTP server, driven by the real SDK of each wire format (Gemini's included), every request's system prompt and tool
 * list are byte-identical to the first, and each request's messages extend the previous request's.
 * The only per-request difference Anthropic is allowed is where the cache markers sit: on the last two
 * user messages.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type DefinedTool, defineTool } from '../src/index.js'
import type { RecordedRequest, ServerStep } from '../src/testing.js'
import { cleanupTempDirs, tempDir } from './engine-harness.js'
import { cleanupServers, sdkEngine, WIRE_MODELS } from './engine-sdk-harness.js'

cleanupTempDirs()
cleanupServers()

const ROUNDS = 30
/** Requests of the first turn; the rest belong to a second turn in the same session. */
const FIRST_TURN = 18

/** A small git project the tools read, search and list. */
function project(): string {
  const root = tempDir('ze-prefix-')
  mkdirSync(join(root, 'src'))
  writeFileSync(join(root, 'src', 'math.js'), 'export function add(a, b) {\n  return a + b\n}\n')
  writeFileSync(join(root, 'src', 'strings.js'), 'export const shout = (s) => s.toUpperCase()\n')
  writeFileSync(join(root, 'README.md'), '# demo\n\nA project for the prefix test.\n')
  execFileSync('git', ['init', '-q'], { cwd: root })
  return root
}

/** Request `index`'s answer: Read, Grep, Bash, or Read and Grep together; text at the end of each turn. */
function step(root: string, index: number, custom?: string): ServerStep {
  if (index === FIRST_TURN - 1 || index === ROUNDS - 1)
    return { blocks: [{ type: 'text', text: `Done ${index}.` }] }
  const read = { type: 'tool_use' as const, name: 'Read', input: { file_path: join(root, 'src', 'math.js') } }
  const grep = { type: 'tool_use' as const, name: 'Grep', input: { pattern: 'export', path: root } }
  const bash = {
    type: 'tool_use' as const,
    name: 'Bash',
    input: { command: `echo round ${index} && ls src`, description: `List ${index}` },
  }
  switch (index % 4) {
    case 0:
      return {
        blocks: [
          custom !== undefined ? { type: 'tool_use', name: custom, input: { key: `k${index}` } } : read,
        ],
      }
    case 1:
      return { blocks: [{ type: 'text', text: `Searching, round ${index}.` }, grep] }
    case 2:
      return { blocks: [bash] }
    default:
      return { blocks: [{ type: 'text', text: 'Both at once.' }, read, grep] }
  }
}

/** Runs the two-turn, 30-request session against one wire format; returns the recorded requests. */
async function recordSession(
  model: string,
  userSettings?: string,
  tools?: DefinedTool[],
): Promise<RecordedRequest[]> {
  const root = project()
  const home = tempDir('ze-home-')
  if (userSettings !== undefined) {
    mkdirSync(join(home, 'config'))
    writeFileSync(join(home, 'config', 'settings.toml'), userSettings)
  }
  const t = await sdkEngine((_request, index) => step(root, index, tools?.[0]?.name), {
    home,
    ...(tools ? { tools } : {}),
  })
  const session = await t.engine.openSession({ projectRoot: root, mode: 'bypass', model })
  session.send({ type: 'submit', text: 'Look around the project.' })
  const first = await t.waitFor(session, 'turnFinished', 1, 60_000)
  expect(first).toMatchObject({ outcome: { type: 'done' } })
  session.send({ type: 'submit', text: 'Once more, please.' })
  const second = await t.waitFor(session, 'turnFinished', 2, 60_000)
  expect(second).toMatchObject({ outcome: { type: 'done' } })
  // Every tool ran for real: 28 tool rounds, 7 of them with two calls.
  const finished = t.events(session, 'toolFinished')
  expect(finished).toHaveLength(28 + 7)
  expect(finished.every((event) => event.type === 'toolFinished' && event.status === 'ok')).toBe(true)
  await t.engine.shutdown()
  expect(t.server.requests).toHaveLength(ROUNDS)
  return t.server.requests
}

type Json = Record<string, unknown>
const bytes = (value: unknown) => JSON.stringify(value)

/** Asserts each message list extends the previous one, message by message, byte for byte. */
function expectEachExtendsThePrevious(lists: readonly unknown[][]): void {
  for (let index = 1; index < lists.length; index++) {
    const previous = lists[index - 1]!
    const next = lists[index]!
    expect(next.length, `request ${index} has fewer messages`).toBeGreaterThan(previous.length)
    for (let message = 0; message < previous.length; message++)
      expect(bytes(next[message]), `request ${index}, message ${message}`).toBe(bytes(previous[message]))
  }
}

/** Everything but the conversation is the same bytes in every request (system, tools, model, limits). */
function expectStableOutsideMessages(requests: readonly RecordedRequest[], conversationKey: string): void {
  const outside = (request: RecordedRequest) => bytes({ ...request.body, [conversationKey]: undefined })
  const first = outside(requests[0]!)
  for (const [index, request] of requests.entries()) expect(outside(request), `request ${index}`).toBe(first)
}

/** Spec 003's breakpoints and the extension rule on recorded Anthropic requests; returns messages without markers. */
function expectAnthropicPrefixStable(
  requests: readonly RecordedRequest[],
): Array<Array<{ role: string; content: Json[] }>> {
  expectStableOutsideMessages(requests, 'messages')
  const first = requests[0]!.body as { system: Json[]; tools: Json[] }

  // "on the last cacheable system section, the tool list": exactly one marker each, at the end.
  expect(first.system.length).toBeGreaterThanOrEqual(2)
  expect(first.system.map((section) => section.cache_control !== undefined)).toEqual(
    first.system.map((_, index) => index === first.system.length - 1),
  )
  expect(first.tools.map((tool) => tool.cache_control !== undefined)).toEqual(
    first.tools.map((_, index) => index === first.tools.length - 1),
  )

  // "and the last two user messages (tool-result rounds included)": on the last block of each.
  const stripped = requests.map((request, index) => {
    const messages = request.body.messages as Array<{ role: string; content: Json[] }>
    const marked: string[] = []
    const withoutMarkers = messages.map((message, m) => ({
      ...message,
      content: message.content.map((block, b) => {
        if (block.cache_control === undefined) return block
        expect(block.cache_control).toEqual({ type: 'ephemeral' })
        marked.push(`${m}.${b}`)
        const { cache_control: _marker, ...rest } = block
        return rest
      }),
    }))
    const userIndexes = messages.flatMap((message, m) => (message.role === 'user' ? [m] : []))
    const expected = userIndexes.slice(-2).map((m) => `${m}.${messages[m]!.content.length - 1}`)
    expect(marked, `cache markers of request ${index}`).toEqual(expected)
    return withoutMarkers
  })
  expectEachExtendsThePrevious(stripped)
  return stripped
}

describe('prefix stability (issue 7; spec 003 "Prompt caching")', () => {
  it('Anthropic Messages: tools defined in code are described after the built-ins and the prefix never changes', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks a key up.',
      inputSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
      readOnly: true,
      execute: (input) => `value of ${String(input.key)}`,
    })
    const other = defineTool({
      name: 'other_tool',
      description: 'Never called.',
      inputSchema: { type: 'object', properties: {} },
      execute: () => '',
    })
    const requests = await recordSession(WIRE_MODELS.anthropic, undefined, [lookup, other])
    const stripped = expectAnthropicPrefixStable(requests)
    const tools = (requests[0]!.body as { tools: Json[] }).tools.map((tool) => tool.name)
    expect(tools.slice(-2)).toEqual(['lookup', 'other_tool'])
    const results = stripped
      .at(-1)!
      .flatMap((message) => message.content.filter((block) => block.type === 'tool_result'))
    expect(JSON.stringify(results)).toContain('value of k0')
  }, 120_000)

  it('Anthropic Messages: the system prompt and tools never change, messages extend the previous request, markers sit on the last two user messages', async () => {
    const requests = await recordSession(WIRE_MODELS.anthropic)
    const stripped = expectAnthropicPrefixStable(requests)
    // The tool results went out as tool-result rounds, never as errors.
    const last = stripped.at(-1)!
    const results = last.flatMap((message) => message.content.filter((block) => block.type === 'tool_result'))
    expect(results).toHaveLength(35)
    expect(results.every((block) => block.is_error === false)).toBe(true)
  }, 120_000)

  it('Anthropic Messages: steering, todos, nested instructions, a glob rule, a finished background job, mode changes, a user shell command and an external edit all travel as reminders on the newest user message; the prefix never changes', async () => {
    const root = project()
    mkdirSync(join(root, 'src', 'nested'))
    writeFileSync(join(root, 'src', 'nested', 'AGENTS.md'), 'Nested rule: keep files tiny.\n')
    mkdirSync(join(root, '.z-engine', 'rules'), { recursive: true })
    writeFileSync(
      join(root, '.z-engine', 'rules', 'js.md'),
      '---\nglobs: ["src/**/*.js"]\n---\nJS rule: no semicolons.\n',
    )
    const tool = (name: string, input: Record<string, unknown>) => ({
      type: 'tool_use' as const,
      name,
      input,
    })
    const turnOne: ServerStep[] = [
      {
        blocks: [
          tool('TodoWrite', {
            // Completed: a todo left open at the end of the turn would draw the completion guard's nudge.
            todos: [{ content: 'Look around', status: 'completed', activeForm: 'Looking around' }],
          }),
        ],
      },
      { blocks: [tool('Read', { file_path: join(root, 'src', 'math.js') })] },
      { blocks: [tool('Bash', { command: 'sleep 0.5; echo slow', description: 'Slow' })] },
      {
        blocks: [
          tool('Write', {
            file_path: join(root, 'src', 'nested', 'tiny.js'),
            content: 'export const x = 1\n',
          }),
        ],
      },
      {
        blocks: [
          tool('Bash', { command: 'sleep 0.1; echo bg', description: 'Background', run_in_background: true }),
        ],
      },
      { blocks: [tool('Bash', { command: 'sleep 0.6', description: 'Wait for the job' })] },
      { blocks: [tool('Grep', { pattern: 'export', path: root })] },
      { blocks: [{ type: 'text', text: 'Turn one done.' }] },
    ]
    const turnTwo = (index: number): ServerStep => {
      if (index === ROUNDS - 1) return { blocks: [{ type: 'text', text: 'All done.' }] }
      if (index === turnOne.length)
        return { blocks: [tool('Read', { file_path: join(root, 'src', 'strings.js') })] }
      if (index === turnOne.length + 1)
        return {
          blocks: [
            tool('Edit', {
              file_path: join(root, 'src', 'strings.js'),
              old_string: 'toUpperCase',
              new_string: 'toLocaleUpperCase',
            }),
          ],
        }
      // The first test's script, without its end of turn in the middle.
      return step(root, index === FIRST_TURN - 1 ? 0 : index)
    }
    const t = await sdkEngine((_request, index) => (index < turnOne.length ? turnOne[index] : turnTwo(index)))
    const session = await t.engine.openSession({
      projectRoot: root,
      mode: 'bypass',
      model: WIRE_MODELS.anthropic,
    })
    session.send({ type: 'submit', text: 'Look around the project.' })
    // Steering while the slow Bash runs (the third tool call).
    await t.waitFor(session, 'toolStarted', 3)
    session.send({ type: 'steer', text: 'Also check the strings module.' })
    await t.waitFor(session, 'turnFinished', 1, 60_000)
    // Between turns: two mode changes, a user shell command, and an edit made outside the agent.
    session.send({ type: 'setMode', mode: 'acceptEdits' })
    session.send({ type: 'setMode', mode: 'bypass' })
    session.send({ type: 'runShell', command: 'echo from-the-user' })
    await t.waitFor(session, 'commandOutput')
    writeFileSync(join(root, 'src', 'math.js'), 'export function add(a, b) {\n  return b + a\n}\n')
    session.send({ type: 'submit', text: 'Continue.' })
    const finished = await t.waitFor(session, 'turnFinished', 2, 60_000)
    expect(finished).toMatchObject({ outcome: { type: 'done' } })
    await t.engine.shutdown()

    const requests = t.server.requests
    expect(requests).toHaveLength(ROUNDS)
    const stripped = expectAnthropicPrefixStable(requests)
    // Each of those reached the model (so the test proves they did not disturb the prefix).
    const everything = JSON.stringify(stripped.at(-1))
    for (const expected of [
      'Also check the strings module.',
      'Nested rule: keep files tiny.',
      'JS rule: no semicolons.',
      'from-the-user',
      'The permission mode is now acceptEdits.',
    ])
      expect(everything, expected).toContain(expected)
    expect(everything).toContain('Background job bash_1 (Background) finished')
  }, 120_000)

  it('Chat Completions: the system message and tools never change and messages extend the previous request', async () => {
    const requests = await recordSession(WIRE_MODELS['openai-chat'])
    expectStableOutsideMessages(requests, 'messages')
    const lists = requests.map((request) => request.body.messages as Array<{ role: string }>)
    expect(lists.every((messages) => messages[0]!.role === 'system')).toBe(true)
    expectEachExtendsThePrevious(lists)
    // No provider.cache_control here: no markers at all.
    expect(requests.some((request) => bytes(request.body).includes('cache_control'))).toBe(false)
    expect(lists.at(-1)!.filter((message) => message.role === 'tool')).toHaveLength(35)
  }, 120_000)

  it('Chat Completions with provider.openai_chat.cache_control: markers on the last cacheable system part and the last two user turns, and nothing else moves', async () => {
    const requests = await recordSession(
      WIRE_MODELS['openai-chat'],
      '[provider.openai_chat]\ncache_control = true\n',
    )
    expectStableOutsideMessages(requests, 'messages')
    type ChatMessage = { role: string; content: string | Json[] | null }
    const systems = requests.map((request) => bytes((request.body.messages as ChatMessage[])[0]))
    expect(new Set(systems).size).toBe(1)
    const system = (requests[0]!.body.messages as ChatMessage[])[0]!.content as Json[]
    expect(system.map((part) => part.cache_control !== undefined)).toEqual(
      system.map((_, index) => index === system.length - 1),
    )
    // A marked message carries its text as one part; unmarked, as a plain string. That shape and the
    // marker are the only things allowed to differ from one request to the next.
    const normalized = requests.map((request, index) => {
      const messages = (request.body.messages as ChatMessage[]).slice(1)
      const marked: number[] = []
      const plain = messages.map((message, m) => {
        if (!Array.isArray(message.content)) return message
        const parts = message.content.map((part) => {
          if (part.cache_control === undefined) return part
          marked.push(m)
          const { cache_control: _marker, ...rest } = part
          return rest
        })
        const onlyText = parts.length === 1 && parts[0]!.type === 'text'
        return { ...message, content: onlyText && marked.includes(m) ? (parts[0]!.text as string) : parts }
      })
      // The last message of each of the last two user turns (a user message or its tool results).
      const turnEnds = messages.flatMap((message, m) =>
        message.role !== 'assistant' && messages[m + 1]?.role !== 'tool' && messages[m + 1]?.role !== 'user'
          ? [m]
          : [],
      )
      expect(marked, `cache markers of request ${index}`).toEqual(turnEnds.slice(-2))
      return plain
    })
    expectEachExtendsThePrevious(normalized)
  }, 120_000)

  it('Responses: the instructions and tools never change and the input items extend the previous request', async () => {
    const requests = await recordSession(WIRE_MODELS['openai-responses'])
    expectStableOutsideMessages(requests, 'input')
    expect(typeof requests[0]!.body.instructions).toBe('string')
    const lists = requests.map((request) => request.body.input as Json[])
    expectEachExtendsThePrevious(lists)
    expect(lists.at(-1)!.filter((item) => item.type === 'function_call_output')).toHaveLength(35)
  }, 120_000)

  it('Gemini: the system instruction, tools and config never change and the contents extend the previous request, thought signatures included', async () => {
    const requests = await recordSession(WIRE_MODELS.gemini)
    expectStableOutsideMessages(requests, 'contents')
    const first = requests[0]!.body as {
      systemInstruction: { parts: Json[] }
      tools: Array<{ functionDeclarations: Json[] }>
    }
    expect(first.systemInstruction.parts.length).toBeGreaterThanOrEqual(2)
    expect(first.tools[0]!.functionDeclarations.map((declaration) => declaration.name)).toContain('Read')
    const lists = requests.map((request) => request.body.contents as Array<{ role: string; parts: Json[] }>)
    expectEachExtendsThePrevious(lists)
    const parts = lists.at(-1)!.flatMap((content) => content.parts)
    expect(parts.filter((part) => part.functionResponse !== undefined)).toHaveLength(35)
    // Every tool round's first call went back with the signature the server put on it.
    const signed = parts.filter(
      (part) => part.functionCall !== undefined && part.thoughtSignature !== undefined,
    )
    expect(signed).toHaveLength(28)
  }, 120_000)
})
