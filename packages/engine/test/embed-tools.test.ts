/**
 * Issue 16 item 1: tools defined in code (`defineTool`), passed on `Engine.create` and
 * `openSession`, offered after the built-ins in a stable order, through the one gate, and there again
 * on resume.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ToolResultBlock } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { defineTool, Engine, EngineError, ToolDefinitionError } from '../src/index.js'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

const weather = defineTool({
  name: 'get_weather',
  description: 'The weather in a city.',
  inputSchema: z.object({ city: z.string().describe('The city'), days: z.number().int().default(1) }),
  readOnly: true,
  execute: ({ city, days }) => `Sunny in ${city} for ${days} day(s).`,
})

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys the app to an environment.',
  inputSchema: {
    type: 'object',
    properties: { env: { type: 'string', enum: ['staging', 'prod'] } },
    required: ['env'],
  },
  execute: (input) => ({ content: `deployed to ${String(input.env)}`, details: { url: 'https://x' } }),
})

function resultsOf(requestMessages: { content: unknown[] }[]): ToolResultBlock[] {
  return requestMessages.flatMap((message) =>
    message.content.filter(
      (block): block is ToolResultBlock => (block as { type: string }).type === 'tool_result',
    ),
  )
}

describe('defineTool', () => {
  it('converts a Zod schema to JSON Schema and refuses bad names and schemas with what to change', async () => {
    expect(weather.inputSchema).toMatchObject({
      type: 'object',
      properties: { city: { type: 'string', description: 'The city' } },
      required: ['city'],
    })
    expect(weather.inputSchema).not.toHaveProperty('$schema')
    expect(weather.concurrencySafe).toBe(true)
    const bad = (spec: Record<string, unknown>) => () =>
      defineTool({
        name: 'ok',
        description: 'd',
        inputSchema: { type: 'object' },
        execute: () => '',
        ...spec,
      })
    expect(bad({ name: 'has space' })).toThrow(ToolDefinitionError)
    expect(bad({ name: 'mcp__x__y' })).toThrow(/belong to MCP servers/)
    expect(bad({ description: '' })).toThrow(/needs a description/)
    expect(bad({ inputSchema: { type: 'string' } })).toThrow(/type "object"/)
    // A schema that does not compile is refused where the tool is given (ajv loads there, not at import).
    const uncompilable = defineTool({
      name: 'uncompilable',
      description: 'd',
      inputSchema: { type: 'object', properties: { a: { type: 'nope' } } },
      execute: () => '',
    })
    await expect(Engine.create({ isolated: true, tools: [uncompilable] })).rejects.toThrow(
      /Tool 'uncompilable': its input schema does not compile/,
    )
    await expect(Engine.create({ isolated: true, tools: [uncompilable] })).rejects.toBeInstanceOf(
      ToolDefinitionError,
    )
  })
})

describe('tools defined in code', () => {
  it('runs a read-only tool without asking and parses its input with the Zod schema', async () => {
    const project = buggyProject()
    const t = await engineWith(
      [
        { blocks: [{ type: 'tool_use', name: 'get_weather', input: { city: 'Oslo' } }] },
        { blocks: [{ type: 'text', text: 'It is sunny.' }] },
      ],
      undefined,
      { tools: [weather] },
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'weather?' })
    await t.waitFor(session, 'turnFinished')
    expect(t.events(session, 'approvalRequested')).toHaveLength(0)
    // /status lists it as code: a name with underscores is not markdown emphasis.
    session.send({ type: 'runCommand', name: 'status', args: '' })
    const status = await t.waitFor(session, 'commandOutput')
    expect(status.type === 'commandOutput' && status.markdown).toMatch(
      /\*\*Tools:\*\* `Read`, .*`get_weather`/,
    )
    const [result] = resultsOf(t.client.requests[1]!.messages)
    expect(result).toMatchObject({
      isError: false,
      content: [{ type: 'text', text: 'Sunny in Oslo for 1 day(s).' }],
    })
    // Described after the built-ins.
    const names = t.client.requests[0]!.tools.map((tool) => tool.name)
    expect(names.at(-1)).toBe('get_weather')
    expect(t.client.requests[0]!.tools.at(-1)).toMatchObject({ description: 'The weather in a city.' })
    await t.engine.shutdown()
  })

  it('asks for a tool that is not read-only, and obeys deny rules and plan mode', async () => {
    const project = buggyProject()
    const t = await engineWith([
      { blocks: [{ type: 'tool_use', name: 'deploy', input: { env: 'staging' } }] },
      { blocks: [{ type: 'text', text: 'deployed' }] },
      { blocks: [{ type: 'tool_use', name: 'deploy', input: { env: 'prod' } }] },
      { blocks: [{ type: 'text', text: 'refused' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', tools: [deploy] })
    session.send({ type: 'submit', text: 'deploy to staging' })
    const asked = await t.waitFor(session, 'approvalRequested')
    if (asked.type !== 'approvalRequested') throw new Error('unreachable')
    expect(asked.request).toMatchObject({ toolName: 'deploy', reason: 'deploy needs approval' })
    session.send({ type: 'resolveApproval', approvalId: asked.request.id, decision: { type: 'allowOnce' } })
    await session.idle()
    expect(resultsOf(t.client.requests[1]!.messages)[0]).toMatchObject({
      isError: false,
      content: [{ text: 'deployed to staging' }],
    })
    session.send({ type: 'setMode', mode: 'plan' })
    session.send({ type: 'submit', text: 'deploy to prod' })
    await session.idle()
    expect(resultsOf(t.client.requests[3]!.messages).at(-1)).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('plan mode is read-only') }],
    })
    await t.engine.shutdown()
  })

  it('describes its action to the policy: a Read deny rule holds for a tool that reads files', async () => {
    const project = buggyProject()
    writeFileSync(join(project, '.env'), 'SECRET=1\n')
    const home = tempDir('ze-home-')
    mkdirSync(join(home, 'config'))
    writeFileSync(join(home, 'config', 'settings.toml'), '[permissions]\ndeny = ["Read(./.env)"]\n')
    const catFile = defineTool({
      name: 'cat_file',
      description: 'Prints a file.',
      inputSchema: z.object({ path: z.string() }),
      readOnly: true,
      action: ({ path }) => ({ type: 'read', paths: [path] }),
      execute: ({ path }, { cwd }) => readFileSync(join(cwd, path), 'utf8'),
    })
    const t = await engineWith(
      [
        { blocks: [{ type: 'tool_use', name: 'cat_file', input: { path: 'math.js' } }] },
        { blocks: [{ type: 'tool_use', name: 'cat_file', input: { path: '.env' } }] },
        { blocks: [{ type: 'text', text: 'ok' }] },
      ],
      home,
      { tools: [catFile] },
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'show files' })
    await session.idle()
    expect(t.events(session, 'approvalRequested')).toHaveLength(0)
    expect(resultsOf(t.client.requests[1]!.messages)[0]).toMatchObject({
      isError: false,
      content: [{ text: expect.stringContaining('return a - b') }],
    })
    expect(resultsOf(t.client.requests[2]!.messages).at(-1)).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('Permission denied') }],
    })
    await t.engine.shutdown()
  })

  it('turns a throw, an invalid parse and an error result into error results the model reads', async () => {
    const project = buggyProject()
    const flaky = defineTool({
      name: 'flaky',
      description: 'Fails in different ways.',
      inputSchema: z.object({ how: z.enum(['throw', 'error']) }),
      readOnly: true,
      execute: ({ how }) => {
        if (how === 'throw') throw new Error('disk on fire')
        return { content: 'quota exceeded', isError: true }
      },
    })
    const t = await engineWith(
      [
        {
          blocks: [
            { type: 'tool_use', name: 'flaky', input: { how: 'throw' } },
            { type: 'tool_use', name: 'flaky', input: { how: 'error' } },
            { type: 'tool_use', name: 'flaky', input: { how: 'melt' } },
          ],
        },
        { blocks: [{ type: 'text', text: 'ok' }] },
      ],
      undefined,
      { tools: [flaky] },
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await session.idle()
    const results = resultsOf(t.client.requests[1]!.messages)
    expect(results.map((result) => result.isError)).toEqual([true, true, true])
    expect(JSON.stringify(results[0])).toContain('flaky failed: disk on fire')
    expect(JSON.stringify(results[1])).toContain('quota exceeded')
    expect(JSON.stringify(results[2])).toMatch(/how/)
    await t.engine.shutdown()
  })

  it('refuses a tool named like a built-in and two tools with one name', async () => {
    const project = buggyProject()
    const read = defineTool({
      name: 'Read',
      description: 'mine',
      inputSchema: { type: 'object' },
      execute: () => '',
    })
    const t = await engineWith([], undefined, { tools: [weather] })
    await expect(t.engine.openSession({ projectRoot: project, tools: [read] })).rejects.toThrow(/built-in/)
    await expect(t.engine.openSession({ projectRoot: project, tools: [weather] })).rejects.toThrow(
      EngineError,
    )
    await t.engine.shutdown()
  })

  it('is there again on resume: the engine’s tools always, a session’s when passed again', async () => {
    const project = buggyProject()
    const t = await engineWith(
      [
        { blocks: [{ type: 'tool_use', name: 'get_weather', input: { city: 'Rome' } }] },
        { blocks: [{ type: 'text', text: 'first' }] },
        { blocks: [{ type: 'tool_use', name: 'get_weather', input: { city: 'Bern' } }] },
        { blocks: [{ type: 'text', text: 'second' }] },
      ],
      undefined,
      { tools: [weather] },
    )
    const first = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', tools: [deploy] })
    first.send({ type: 'submit', text: 'one' })
    await first.idle()
    await first.close()
    const resumed = await t.engine.openSession({ projectRoot: project, resume: first.id, tools: [deploy] })
    resumed.send({ type: 'submit', text: 'two' })
    await resumed.idle()
    const names = (index: number) => t.client.requests[index]!.tools.map((tool) => tool.name)
    // Same order before and after the resume: built-ins, the engine's tools, the session's.
    expect(names(2)).toEqual(names(0))
    expect(names(0).slice(-2)).toEqual(['get_weather', 'deploy'])
    expect(JSON.stringify(resultsOf(t.client.requests[3]!.messages).at(-1))).toContain('Sunny in Bern')
    await t.engine.shutdown()
  })
})
