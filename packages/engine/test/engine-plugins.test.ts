/**
 * Issue 24 inside a session: an installed, enabled plugin's namespaced command runs as a turn and
 * its agent type is offered; `/plugin` in the chat adds a marketplace, installs a plugin after
 * showing what it adds and asking once, and its commands, agents, skills, hooks and MCP servers are
 * live in the same session; disable, uninstall and marketplace remove take them away again.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { isProcessAlive } from '@z-engine/host'
import type { EngineEvent } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { viewOf } from '../src/api/engine.js'
import type { Session } from '../src/index.js'
import { FAULT_SERVER } from '../src/mcp/mcp.test-util.js'
import { addMarketplace, stagePluginInstall } from '../src/plugins-entry.js'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

function put(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
}

type T = Awaited<ReturnType<typeof engineWith>>
type Question = Extract<EngineEvent, { type: 'questionAsked' }>
const notices = (t: T, session: Session) =>
  t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.message : ''))
const lastOutput = (t: T, session: Session) => {
  const event = t.events(session, 'commandOutput').at(-1)
  return event?.type === 'commandOutput' ? event.markdown : ''
}

/** Where the plugin's hook leaves its mark: its data folder, the one place outside the project it may write (issue 34). */
const HOOK_COMMAND = 'echo tidy-hook >> "$CLAUDE_PLUGIN_DATA/hook.txt"'
const markerOf = (t: { engine: { paths: { dataDir: string } } }) =>
  join(t.engine.paths.dataDir, 'plugins', 'data', 'tidy-acme', 'hook.txt')

/** A marketplace `acme` with one plugin `tidy`: a command, an agent, a skill, a hook and an MCP server. */
function acmeMarketplace(): string {
  const market = tempDir('ze-market-')
  put(
    market,
    '.claude-plugin/marketplace.json',
    JSON.stringify({ name: 'acme', plugins: [{ name: 'tidy', source: './tidy', version: '0.1.0' }] }),
  )
  put(market, 'tidy/.claude-plugin/plugin.json', JSON.stringify({ name: 'tidy', version: '0.1.0' }))
  put(market, 'tidy/commands/sweep.md', '---\ndescription: Sweep a file\n---\nSweep $ARGUMENTS clean.\n')
  put(market, 'tidy/agents/broom.md', '---\nname: broom\ndescription: Sweeps files\n---\nSweep.\n')
  put(market, 'tidy/skills/shine/SKILL.md', '---\nname: shine\ndescription: Shines the code\n---\nShine.\n')
  put(
    market,
    'tidy/hooks/hooks.json',
    JSON.stringify({
      hooks: {
        UserPromptSubmit: [{ hooks: [{ type: 'command', command: HOOK_COMMAND }] }],
      },
    }),
  )
  put(market, 'tidy/server.mjs', `await import(${JSON.stringify(FAULT_SERVER)})\n`)
  put(
    market,
    'tidy/.mcp.json',
    JSON.stringify({
      // The server's code must be in the view: its own folder, or a script named in its arguments (issue 34).
      mcpServers: {
        dust: { command: process.execPath, args: ['${CLAUDE_PLUGIN_ROOT}/server.mjs', FAULT_SERVER] },
      },
    }),
  )
  return market
}

/** Answers the session's next question with `label`; returns the question. */
async function answerNext(t: T, session: Session, count: number, label: string): Promise<Question> {
  const asked = (await t.waitFor(session, 'questionAsked', count)) as Question
  const question = asked.question.questions[0]!
  session.send({
    type: 'answerQuestion',
    questionId: asked.question.id,
    response: { type: 'answered', answers: [{ question: question.question, selected: [label] }] },
  })
  return asked
}

describe('plugins in a session', () => {
  it('runs /plugin:command and offers plugin:agent of a plugin installed before the session', async () => {
    const market = acmeMarketplace()
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
    expect(lastOutput(t, session)).toContain(
      '| tidy@acme | 0.1.0 | enabled, loaded | 1 command, 1 agent, 1 skill, 1 hook, 1 MCP server |',
    )
    await t.engine.shutdown()
  })

  it("a project's enabledPlugins load only once the workspace is trusted, and trusting the running session loads them", async () => {
    const market = acmeMarketplace()
    const project = buggyProject()
    put(project, '.claude/settings.json', JSON.stringify({ enabledPlugins: { 'tidy@acme': true } }))
    const t = await engineWith([{ blocks: [{ type: 'text', text: 'Swept.' }] }])
    const paths = { dataDir: t.engine.paths.dataDir, env: {}, cwd: project }
    expect((await addMarketplace(paths, market)).ok).toBe(true)
    const staged = await stagePluginInstall(paths, (await t.engine.settings(project)).settings, 'tidy@acme')
    if (!staged.ok) throw new Error(staged.error)
    expect((await staged.value.commit(t.engine.paths.configDir)).ok).toBe(true)
    // Installed, but enabled only by the project: the user's own settings say nothing.
    writeFileSync(join(t.engine.paths.configDir, 'settings.toml'), '')

    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'runCommand', name: 'tidy:sweep', args: 'math.js' })
    await session.idle()
    expect(notices(t, session).at(-1)).toContain('tidy:sweep')
    expect(t.client.requests).toHaveLength(0)

    session.send({ type: 'trustWorkspace', trusted: true })
    await session.idle()
    session.send({ type: 'runCommand', name: 'tidy:sweep', args: 'math.js' })
    await t.waitFor(session, 'turnFinished')
    expect(JSON.stringify(t.client.requests[0]!.messages[0]!.content)).toContain('Sweep math.js clean.')
    await t.engine.shutdown()
  })

  it('/plugin marketplace add, then /plugin install asks once showing what it adds and makes its command, agent, skill, hook and MCP server live; disable, uninstall and marketplace remove take them away', async () => {
    const market = acmeMarketplace()
    const project = buggyProject()
    const t = await engineWith((_request, index) => ({
      blocks: [{ type: 'text', text: `Answer ${index}.` }],
    }))
    const marker = markerOf(t)
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    const run = async (args: string) => {
      session.send({ type: 'runCommand', name: 'plugin', args })
      await session.idle()
      return lastOutput(t, session)
    }

    expect(await run(`marketplace add ${market}`)).toContain(
      'Added marketplace **acme** (' + market + ') with 1 plugin: tidy.',
    )
    // A compact table, one row per marketplace; its plugins are in the detail view.
    const markets = await run('marketplace list')
    expect(markets).toContain(`| acme | 1 | ${market} |`)
    expect(markets).not.toContain('tidy')
    const acme = await run('marketplace show acme')
    expect(acme).toContain('| tidy | 0.1.0 |')
    expect(acme).toContain('Install one with `/plugin install <plugin>@acme`.')

    // Declined: nothing is installed or enabled.
    session.send({ type: 'runCommand', name: 'plugin', args: 'install tidy@acme' })
    const declined = await answerNext(t, session, 1, 'No')
    await session.idle()
    expect(lastOutput(t, session)).toBe('Not installed: **tidy@acme**.')
    expect(existsSync(join(t.engine.paths.configDir, 'settings.toml'))).toBe(false)
    // The question named what the plugin adds before anything ran.
    const asked = declined.question.questions[0]!.question
    expect(asked).toContain('Install tidy@acme?')
    expect(asked).toContain('commands: /tidy:sweep')
    expect(asked).toContain('agents: tidy:broom')
    expect(asked).toContain('skills: tidy:shine')
    expect(asked).toContain(`hook UserPromptSubmit: runs ${HOOK_COMMAND}`)
    expect(asked).toMatch(/MCP server plugin_tidy_dust: runs .*tidy\/server\.mjs/)

    // Accepted: installed, enabled, and live in this session.
    session.send({ type: 'runCommand', name: 'plugin', args: 'install tidy@acme' })
    await answerNext(t, session, 2, 'Yes')
    await session.idle()
    expect(lastOutput(t, session)).toContain('Installed **tidy@acme** and enabled it in')
    expect(readFileSync(join(t.engine.paths.configDir, 'settings.toml'), 'utf8')).toContain(
      '"tidy@acme" = true',
    )
    await expect
      .poll(
        () => notices(t, session).some((message) => /MCP server plugin_tidy_dust is ready/.test(message)),
        {
          timeout: 30_000,
        },
      )
      .toBe(true)

    session.send({ type: 'runCommand', name: 'tidy:sweep', args: 'math.js' })
    await t.waitFor(session, 'turnFinished')
    const request = t.client.requests[0]!
    expect(JSON.stringify(request.messages[0]!.content)).toContain('Sweep math.js clean.')
    expect(request.tools.find((tool) => tool.name === 'Agent')?.description).toContain('tidy:broom')
    expect(request.tools.map((tool) => tool.name)).toContain('mcp__plugin_tidy_dust__echo')
    expect(JSON.stringify(request.system)).toContain('tidy:shine')
    expect(readFileSync(marker, 'utf8')).toBe('tidy-hook\n')
    const pid = viewOf(session)
      .mcpServers()
      .find((server) => server.name === 'plugin_tidy_dust')?.pid
    expect(pid).toBeGreaterThan(0)

    // Disabled: the command, agent, skill, hook and server leave this session.
    expect(await run('disable tidy@acme')).toContain('Disabled **tidy@acme**')
    expect(isProcessAlive(pid!)).toBe(false)
    session.send({ type: 'submit', text: 'Anything left?' })
    await t.waitFor(session, 'turnFinished', 2)
    const after = t.client.requests.at(-1)!
    expect(after.tools.find((tool) => tool.name === 'Agent')?.description).not.toContain('tidy:broom')
    expect(after.tools.map((tool) => tool.name)).not.toContain('mcp__plugin_tidy_dust__echo')
    expect(JSON.stringify(after.system)).not.toContain('tidy:shine')
    expect(readFileSync(marker, 'utf8')).toBe('tidy-hook\n')
    session.send({ type: 'runCommand', name: 'tidy:sweep', args: '' })
    await session.idle()
    expect(notices(t, session).at(-1)).toContain('tidy:sweep')

    expect(await run('enable tidy@acme')).toContain('Enabled **tidy@acme**')
    // `/plugin`: a table row per plugin with counts; `/plugin show` lists everything it adds.
    const overview = await run('')
    expect(overview).toContain(
      '| tidy@acme | 0.1.0 | enabled, loaded | 1 command, 1 agent, 1 skill, 1 hook, 1 MCP server |',
    )
    expect(overview).not.toContain('/tidy:sweep')
    const detail = await run('show tidy@acme')
    expect(detail).toContain('**tidy@acme** 0.1.0')
    expect(detail).toContain('Enabled, loaded in this session')
    expect(detail).toContain('- commands: /tidy:sweep')
    expect(detail).toMatch(/- MCP server plugin_tidy_dust: runs .*tidy\/server\.mjs/)
    expect(await run('uninstall tidy@acme')).toContain('Uninstalled **tidy@acme**')
    expect(await run('')).toContain('No plugins installed (`/plugin install <plugin>@<marketplace>`).')
    expect(await run('marketplace remove acme')).toBe('Removed marketplace **acme**.')
    session.send({ type: 'runCommand', name: 'plugin', args: 'install tidy@acme' })
    await session.idle()
    expect(notices(t, session).at(-1)).toMatch(/^\/plugin install: .*acme/)
    await t.engine.shutdown()
  })
})
