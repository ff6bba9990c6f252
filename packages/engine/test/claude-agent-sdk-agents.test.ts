/**
 * Issue 36: the Claude Agent SDK's `options.agents` (subagents defined in code) over the scripted
 * Anthropic wire with the real Anthropic SDK: the model delegates with the Agent tool's
 * `subagent_type`, and the subagent runs with the definition's prompt, tools and model.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  type Options,
  query,
  type SDKMessage,
  type SDKResultMessage,
} from '@z-engine/engine/claude-agent-sdk'
import { describe, expect, it } from 'vitest'
import { Engine, EngineError } from '../src/index.js'
import { startScriptedServer } from '../src/testing.js'
import { cleanupTempDirs, tempDir } from './engine-harness.js'

cleanupTempDirs()

async function collect(messages: AsyncIterable<SDKMessage>): Promise<SDKMessage[]> {
  const all: SDKMessage[] = []
  for await (const message of messages) all.push(message)
  return all
}

type WireTool = { name: string; description?: string }

describe('options.agents in the Claude Agent SDK query()', () => {
  it('offers a programmatic agent to the Agent tool, and its run has the agent’s prompt, tools and model', async () => {
    const project = tempDir('ze-cas-agents-')
    const home = tempDir('ze-cas-agents-home-')
    writeFileSync(join(project, 'notes.txt'), 'remember the milk\n')
    const server = await startScriptedServer([
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'Agent',
            input: {
              subagent_type: 'notes-reviewer',
              description: 'Review the notes',
              prompt: 'Read notes.txt and say what it asks.',
            },
          },
        ],
      },
      // The subagent's rounds.
      { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'notes.txt') } }] },
      { blocks: [{ type: 'text', text: 'REVIEWED: it asks to remember the milk.' }] },
      // The main agent again, with the subagent's answer.
      { blocks: [{ type: 'text', text: 'The reviewer says: remember the milk.' }] },
    ])
    try {
      const options: Options = {
        cwd: project,
        model: 'sonnet',
        env: { ANTHROPIC_API_KEY: 'x', ANTHROPIC_BASE_URL: server.url, PATH: process.env.PATH, HOME: home },
        // Claude Code's name for the Agent tool.
        allowedTools: ['Task'],
        agents: {
          'notes-reviewer': {
            description: 'Reviews note files and says what they ask for.',
            prompt: 'You are the notes reviewer. Start every answer with REVIEWED.',
            tools: ['Read', 'Grep'],
            model: 'haiku',
          },
        },
      }
      const messages = await collect(query({ prompt: 'What do my notes say?', options }))

      const init = messages[0]
      if (init?.type !== 'system' || init.subtype !== 'init') throw new Error('no init message')
      expect(init.agents).toContain('notes-reviewer')

      // The main agent's Agent tool lists the programmatic agent with its description.
      const [main, sub, subAgain, mainAgain] = server.requests
      const agentTool = (main?.body.tools as WireTool[] | undefined)?.find((tool) => tool.name === 'Agent')
      expect(agentTool?.description).toContain('notes-reviewer')
      expect(agentTool?.description).toContain('Reviews note files and says what they ask for.')
      expect(main?.body.model).toBe('claude-sonnet-4-6')

      // The subagent: its prompt is the system prompt, only its tools are offered, on its model.
      for (const request of [sub, subAgain]) {
        expect(JSON.stringify(request?.body.system)).toContain('You are the notes reviewer.')
        const tools = (request?.body.tools ?? []) as WireTool[]
        expect(tools.map((tool) => tool.name).sort()).toEqual(['Grep', 'Read'])
        expect(request?.body.model).toBe('claude-haiku-4-5')
      }
      expect(JSON.stringify(main?.body.system)).not.toContain('You are the notes reviewer.')
      expect(JSON.stringify(subAgain?.body.messages)).toContain('remember the milk')
      // Its answer came back to the main agent as the Agent call's result.
      expect(JSON.stringify(mainAgain?.body.messages)).toContain('REVIEWED: it asks to remember the milk.')

      const result = messages.at(-1) as SDKResultMessage
      expect(result).toMatchObject({
        type: 'result',
        subtype: 'success',
        result: 'The reviewer says: remember the milk.',
      })
      // Both models' usage is priced in the result, the subagent's included (as Claude Code reports it).
      expect(Object.keys(result.modelUsage).sort()).toEqual(['claude-haiku-4-5', 'claude-sonnet-4-6'])
      expect(result.modelUsage['claude-haiku-4-5']?.costUSD).toBeGreaterThan(0)
      const perModel = Object.values(result.modelUsage).reduce((sum, usage) => sum + usage.costUSD, 0)
      expect(result.total_cost_usd).toBeCloseTo(perModel, 10)
    } finally {
      await server.close()
    }
  }, 120_000)

  it('refuses agent fields the engine cannot honour, naming each, before anything runs', async () => {
    const project = tempDir('ze-cas-agents-refused-')
    const messages = query({
      prompt: 'hi',
      options: {
        cwd: project,
        env: { ANTHROPIC_API_KEY: 'x', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9', HOME: project },
        agents: {
          helper: { description: 'Helps.', prompt: 'Help.', effort: 'high', memory: 'project' },
        },
      },
    })
    await expect(collect(messages)).rejects.toThrow(
      /options\.agents\.helper\.effort: .*\n {2}options\.agents\.helper\.memory: /,
    )
  })

  it('fails openSession with invalidOption when an agent defined in code cannot be used as given', async () => {
    const base = tempDir('ze-code-agents-')
    const engine = await Engine.create({
      dataDir: join(base, 'data'),
      configDir: join(base, 'config'),
      home: base,
      env: {},
      isolated: true,
    })
    try {
      const opened = engine.openSession({
        projectRoot: base,
        model: 'scripted:none',
        agents: {
          'bad name!': { description: 'x', prompt: 'y' },
          empty: { description: 'Does nothing.', prompt: '  ' },
          odd: { description: 'Odd.', prompt: 'Be odd.', flavour: 'sour' } as never,
        },
      })
      await expect(opened).rejects.toBeInstanceOf(EngineError)
      await expect(opened).rejects.toMatchObject({ code: 'invalidOption' })
      await expect(opened).rejects.toThrow(/agents\.bad name!: .*not a valid agent name/)
      await expect(opened).rejects.toThrow(/agents\.empty: needs a non-empty "prompt"/)
      await expect(opened).rejects.toThrow(/agents\.odd: unknown field "flavour"/)
    } finally {
      await engine.shutdown()
    }
  })
})
