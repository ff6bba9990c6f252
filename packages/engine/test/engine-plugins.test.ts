/**
 * Issue 24 inside a session: an installed, enabled plugin's namespaced command runs as a turn, its
 * agent type is offered, `/plugin` lists marketplaces and plugins, and `/plugin disable` turns it
 * off for the next session.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { addMarketplace, stagePluginInstall } from '../src/internal.js'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

function put(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
}

describe('plugins in a session', () => {
  it('runs /plugin:command, offers plugin:agent, lists with /plugin and disables with /plugin disable', async () => {
    const market = tempDir('ze-market-')
    put(
      market,
      '.claude-plugin/marketplace.json',
      JSON.stringify({ name: 'acme', plugins: [{ name: 'tidy', source: './tidy', version: '0.1.0' }] }),
    )
    put(market, 'tidy/.claude-plugin/plugin.json', JSON.stringify({ name: 'tidy', version: '0.1.0' }))
    put(market, 'tidy/commands/sweep.md', '---\ndescription: Sweep a file\n---\nSweep $ARGUMENTS clean.\n')
    put(market, 'tidy/agents/broom.md', '---\nname: broom\ndescription: Sweeps files\n---\nSweep.\n')

    const project = buggyProject()
    const t = await engineWith([{ blocks: [{ type: 'text', text: 'Swept.' }] }])
    const paths = { dataDir: t.engine.paths.dataDir, env: {}, cwd: project }
    expect((await addMarketplace(paths, market)).ok).toBe(true)
    const loaded = await t.engine.settings(project)
    const staged = await stagePluginInstall(paths, loaded.settings, 'tidy@acme')
    if (!staged.ok) throw new Error(staged.error)
    expect(staged.value.summary).toMatchObject({ commands: ['tidy:sweep'], agents: ['tidy:broom'] })
    expect((await staged.value.commit(t.engine.paths.configDir)).ok).toBe(true)

    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'runCommand', name: 'tidy:sweep', args: 'math.js' })
    await t.waitFor(session, 'turnFinished')
    const request = t.client.requests[0]!
    expect(JSON.stringify(request.messages[0]!.content)).toContain('Sweep math.js clean.')
    const agentTool = request.tools.find((tool) => tool.name === 'Agent')
    expect(agentTool?.description).toContain('tidy:broom')

    session.send({ type: 'runCommand', name: 'plugin', args: '' })
    await session.idle()
    const listing = t.events(session, 'commandOutput').at(-1)
    expect(listing?.type === 'commandOutput' && listing.markdown).toContain(
      '**tidy@acme** 0.1.0 (enabled, loaded in this session): /tidy:sweep; agents tidy:broom',
    )
    session.send({ type: 'runCommand', name: 'plugin', args: 'disable tidy@acme' })
    await session.idle()
    const toggled = t.events(session, 'commandOutput').at(-1)
    expect(toggled?.type === 'commandOutput' && toggled.markdown).toContain('Disabled **tidy@acme**')
    expect(readFileSync(join(t.engine.paths.configDir, 'settings.toml'), 'utf8')).toContain(
      '"tidy@acme" = false',
    )
    session.send({ type: 'runCommand', name: 'plugin', args: 'install tidy@acme' })
    await session.idle()
    const notices = t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    expect(notices.some((message) => message.includes('z-engine plugin install tidy@acme'))).toBe(true)

    const next = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    next.send({ type: 'runCommand', name: 'tidy:sweep', args: '' })
    await next.idle()
    const unknown = t.events(next, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
    expect(unknown.some((message) => message.includes('tidy:sweep'))).toBe(true)
    await t.engine.shutdown()
  })
})
