/**
 * Issue 16 item 4: a `settings` object in code (validated with the settings schema, above the
 * files) and `isolated: true`, which reads no user config, no `~/.claude`, no user data folder.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { Engine, EngineError } from '../src/index.js'
import { ScriptedClient } from '../src/testing.js'
import { buggyProject, cleanupTempDirs, tempDir } from './engine-harness.js'

cleanupTempDirs()

/** A home whose user files would change everything an isolated engine must not read. */
function busyHome(): string {
  const home = tempDir('ze-home-')
  mkdirSync(join(home, '.config', 'z-engine', 'rules'), { recursive: true })
  writeFileSync(join(home, '.config', 'z-engine', 'settings.toml'), '[permissions]\nmode = "bypass"\n')
  writeFileSync(join(home, '.config', 'z-engine', 'AGENTS.md'), 'USER-AGENTS-MARKER\n')
  writeFileSync(
    join(home, '.config', 'z-engine', 'rules', 'r.md'),
    '---\nalwaysApply: true\n---\nUSER-RULE-MARKER\n',
  )
  mkdirSync(join(home, '.claude', 'agents'), { recursive: true })
  writeFileSync(join(home, '.claude', 'CLAUDE.md'), 'USER-CLAUDE-MARKER\n')
  writeFileSync(
    join(home, '.claude', 'agents', 'spy.md'),
    '---\nname: spy\ndescription: USER-AGENT-MARKER\n---\nSpy.\n',
  )
  return home
}

function scripted() {
  const client = new ScriptedClient([
    { blocks: [{ type: 'text', text: 'one' }] },
    { blocks: [{ type: 'text', text: 'two' }] },
  ])
  return {
    client,
    clientFactory: {
      createClient: () => ({ ok: true as const, client, provider: 'scripted' as const, model: 'scripted' }),
    },
  }
}

describe('settings in code', () => {
  it('refuses a settings object that does not fit the schema, naming each key', async () => {
    await expect(Engine.create({ settings: { permissions: { mode: 'nope' as never } } })).rejects.toThrow(
      /settings\.permissions\.mode must be one of: default, acceptEdits, plan, bypass/,
    )
    await expect(Engine.create({ settings: { context: { bogus: 1 } } as never })).rejects.toThrow(
      /settings\.context\.bogus is not a known field/,
    )
    const engine = await Engine.create({ isolated: true })
    const error = await engine
      .openSession({ projectRoot: buggyProject(), settings: { agents: { max_turns: 'many' } } as never })
      .catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(EngineError)
    expect((error as EngineError).code).toBe('invalidOption')
    expect((error as EngineError).message).toContain('openSession settings.agents.max_turns')
    await engine.shutdown()
  })

  it('layers above the files: the engine’s, then the session’s, and settings explain shows them', async () => {
    const project = buggyProject()
    mkdirSync(join(project, '.z-engine'))
    writeFileSync(join(project, '.z-engine', 'settings.toml'), '[permissions]\ndeny = ["Bash(rm *)"]\n')
    const home = tempDir('ze-home-')
    const { clientFactory } = scripted()
    const engine = await Engine.create({
      home,
      dataDir: join(home, 'data'),
      configDir: join(home, 'config'),
      env: { HOME: home, PATH: process.env.PATH ?? '' },
      clientFactory,
      settings: { permissions: { mode: 'acceptEdits', allow: ['Bash(npm test)'] }, agents: { max_turns: 7 } },
    })
    const loaded = await engine.settings(project)
    expect(loaded.settings.permissions.mode).toBe('acceptEdits')
    expect(loaded.settings.permissions.allow).toContain('Bash(npm test)')
    expect(loaded.settings.permissions.deny).toContain('Bash(rm *)')
    const explained = loaded.explain.find((entry) => entry.path === 'agents.max_turns')
    expect(explained?.sources.at(-1)).toMatchObject({ layer: 'code', file: 'settings', value: 7 })
    const session = await engine.openSession({
      projectRoot: project,
      settings: { permissions: { mode: 'plan' } },
    })
    expect(session.mode).toBe('plan')
    await engine.shutdown()
  })
})

describe('isolated mode', () => {
  it('reads no user settings, instructions, rules or agents, and keeps sessions in a temp folder it removes', async () => {
    const home = busyHome()
    const project = buggyProject()
    const { client, clientFactory } = scripted()
    const engine = await Engine.create({
      isolated: true,
      home,
      env: { HOME: home, PATH: process.env.PATH ?? '', Z_ENGINE_PERMISSION_MODE: 'bypass' },
      clientFactory,
    })
    const dataDir = engine.paths.dataDir
    expect(dataDir.startsWith(home)).toBe(false)
    expect(engine.paths.configDir.startsWith(dataDir)).toBe(true)
    const session = await engine.openSession({ projectRoot: project })
    // Neither the user's settings.toml nor Z_ENGINE_PERMISSION_MODE put it in bypass.
    expect(session.mode).toBe('default')
    session.send({ type: 'submit', text: 'hi' })
    await session.idle()
    const request = JSON.stringify(client.requests[0])
    for (const marker of [
      'USER-AGENTS-MARKER',
      'USER-RULE-MARKER',
      'USER-CLAUDE-MARKER',
      'USER-AGENT-MARKER',
    ])
      expect(request).not.toContain(marker)
    expect(readdirSync(dataDir)).not.toHaveLength(0)
    expect(existsSync(join(home, '.local'))).toBe(false)
    await engine.shutdown()
    expect(existsSync(dataDir)).toBe(false)
  })

  it('the same home without isolation reads them (the markers are real)', async () => {
    const home = busyHome()
    const project = buggyProject()
    const { client, clientFactory } = scripted()
    const engine = await Engine.create({
      home,
      dataDir: join(home, 'data'),
      configDir: join(home, '.config', 'z-engine'),
      env: { HOME: home, PATH: process.env.PATH ?? '', Z_ENGINE_PERMISSION_MODE: 'acceptEdits' },
      clientFactory,
    })
    expect(
      (await engine.settings(project)).explain
        .find((entry) => entry.path === 'permissions.mode')
        ?.sources.map((source) => source.layer),
    ).toEqual(['defaults', 'user', 'env'])
    const session = await engine.openSession({ projectRoot: project })
    expect(session.mode).toBe('acceptEdits')
    session.send({ type: 'submit', text: 'hi' })
    await session.idle()
    const request = JSON.stringify(client.requests[0])
    for (const marker of [
      'USER-AGENTS-MARKER',
      'USER-RULE-MARKER',
      'USER-CLAUDE-MARKER',
      'USER-AGENT-MARKER',
    ])
      expect(request).toContain(marker)
    await engine.shutdown()
  })
})
