/**
 * Issue 24's model bullet over the scripted Anthropic server with the real SDK: an agent file saying
 * `model: sonnet` runs on the catalog's current Sonnet, and one naming an unknown model warns when
 * it loads and runs on the caller's model with a notice instead of failing the Agent call.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadAgentDefinitions } from '../src/definitions-entry.js'
import { startScriptedServer } from '../src/testing.js'
import { buggyProject, cleanupTempDirs } from './engine-harness.js'
import { cleanupServers, sdkEngine } from './engine-sdk-harness.js'

cleanupTempDirs()
cleanupServers()

function agentFile(project: string, name: string, model: string): void {
  const dir = join(project, '.claude', 'agents')
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, `${name}.md`),
    `---\nname: ${name}\ndescription: Checks things\nmodel: ${model}\n---\nCheck it.\n`,
  )
}

const agentCall = (type: string) => ({
  blocks: [
    {
      type: 'tool_use' as const,
      name: 'Agent',
      input: { subagent_type: type, description: 'check', prompt: 'Check it.' },
    },
  ],
})

describe('agent definitions name models as Claude Code collections do', () => {
  it('sonnet resolves to the current Sonnet; an unknown model warns at load and runs on the caller model', async () => {
    const project = buggyProject()
    agentFile(project, 'sonneteer', 'sonnet')
    agentFile(project, 'storyteller', 'fable')

    const loaded = await loadAgentDefinitions({
      projectRoot: project,
      home: project,
      configDir: project,
      compatClaude: true,
      userFiles: false,
    })
    const byName = (name: string) => loaded.definitions.find((definition) => definition.name === name)
    expect(byName('sonneteer')?.warnings).toEqual([])
    expect(byName('storyteller')?.warnings).toEqual([
      expect.objectContaining({ code: 'model_unknown', message: expect.stringContaining('fable') }),
    ])

    const server = await startScriptedServer([
      agentCall('sonneteer'),
      { blocks: [{ type: 'text', text: 'Sonnet checked.' }] },
      agentCall('storyteller'),
      { blocks: [{ type: 'text', text: 'Checked anyway.' }] },
      { blocks: [{ type: 'text', text: 'Both done.' }] },
    ])
    const { engine, waitFor, events } = await sdkEngine([], { server })
    const session = await engine.openSession({
      projectRoot: project,
      mode: 'bypass',
      model: 'anthropic/claude-haiku-4-5',
    })
    session.send({ type: 'submit', text: 'Check with both agents.' })
    const finished = await waitFor(session, 'turnFinished')
    expect(finished).toMatchObject({ outcome: { type: 'done' } })
    expect(server.requests.map((request) => request.body.model)).toEqual([
      'claude-haiku-4-5',
      'claude-sonnet-4-6',
      'claude-haiku-4-5',
      'claude-haiku-4-5',
      'claude-haiku-4-5',
    ])
    const results = events(session, 'toolFinished').map(
      (event) => event.type === 'toolFinished' && event.status,
    )
    expect(results).toEqual(['ok', 'ok'])
    const notices = events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    expect(
      notices.some((message) =>
        /model fable is unavailable.*storyteller uses anthropic\/claude-haiku-4-5/.test(message),
      ),
    ).toBe(true)
    await engine.shutdown()
  })
})
