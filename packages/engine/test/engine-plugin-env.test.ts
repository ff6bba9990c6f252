/**
 * Claude Code gives a plugin's hook processes (its hooks.json hooks and its agents' frontmatter
 * hooks) and its stdio MCP servers `CLAUDE_PLUGIN_ROOT` and `CLAUDE_PLUGIN_DATA`; hooks written
 * for it (`"$CLAUDE_PLUGIN_ROOT/hooks/run.sh"`, or scripts that read the variable) run here too.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { addMarketplace, stagePluginInstall } from '../src/plugins-entry.js'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

afterAll(() => cleanupTempDirs())

function put(root: string, path: string, text: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
}

describe('a plugin’s processes get CLAUDE_PLUGIN_ROOT and CLAUDE_PLUGIN_DATA', { timeout: 60_000 }, () => {
  it('in its hooks, its agents’ hooks and its stdio MCP servers', async () => {
    const market = tempDir('ze-market-')
    put(
      market,
      '.claude-plugin/marketplace.json',
      JSON.stringify({ name: 'acme', plugins: [{ name: 'guard', source: './guard' }] }),
    )
    put(market, 'guard/.claude-plugin/plugin.json', JSON.stringify({ name: 'guard' }))
    // The script finds its own files through the variable, as official plugins' scripts do.
    put(market, 'guard/hooks/lib.sh', 'LIB=ok\n')
    put(
      market,
      'guard/hooks/run.sh',
      // The data folder is where a confined plugin hook may write beside the project (issue 34).
      '#!/bin/sh\n. "$CLAUDE_PLUGIN_ROOT/hooks/lib.sh"\necho "$1 $LIB $CLAUDE_PLUGIN_ROOT $CLAUDE_PLUGIN_DATA" >> "$CLAUDE_PLUGIN_DATA/env.log"\n',
    )
    chmodSync(join(market, 'guard/hooks/run.sh'), 0o755)
    put(
      market,
      'guard/hooks/hooks.json',
      JSON.stringify({
        hooks: {
          UserPromptSubmit: [
            { hooks: [{ type: 'command', command: '"$CLAUDE_PLUGIN_ROOT"/hooks/run.sh prompt' }] },
          ],
        },
      }),
    )
    put(
      market,
      'guard/agents/sentry.md',
      [
        '---',
        'name: sentry',
        'description: Watches',
        'hooks:',
        '  PreToolUse:',
        '    - hooks:',
        '        - type: command',
        '          command: ${CLAUDE_PLUGIN_ROOT}/hooks/run.sh agent',
        '---',
        'Watch.',
      ].join('\n'),
    )
    put(
      market,
      'guard/.mcp.json',
      JSON.stringify({
        mcpServers: {
          watch: { command: 'node', args: ['${CLAUDE_PLUGIN_DATA}/server.mjs'], env: { LEVEL: '1' } },
        },
      }),
    )
    const project = buggyProject()
    const read = { type: 'tool_use' as const, name: 'Read', input: { file_path: join(project, 'math.js') } }
    const t = await engineWith([
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'Agent',
            input: { subagent_type: 'guard:sentry', description: 'watch', prompt: 'Read math.js.' },
          },
        ],
      },
      { blocks: [read] },
      { blocks: [{ type: 'text', text: 'Watched.' }] },
      { blocks: [{ type: 'text', text: 'Done.' }] },
    ])
    const paths = { dataDir: t.engine.paths.dataDir, env: {}, cwd: project }
    expect((await addMarketplace(paths, market)).ok).toBe(true)
    const staged = await stagePluginInstall(paths, (await t.engine.settings(project)).settings, 'guard@acme')
    if (!staged.ok) throw new Error(staged.error)
    expect((await staged.value.commit(t.engine.paths.configDir)).ok).toBe(true)

    const loaded = await t.engine.settings(project)
    const root = loaded.plugins[0]!.contents.root
    const data = join(t.engine.paths.dataDir, 'plugins', 'data', 'guard-acme')
    expect(existsSync(data)).toBe(true)
    const server = loaded.settings.mcp.servers.plugin_guard_watch
    expect(server).toMatchObject({
      args: [`${data}/server.mjs`],
      env: { CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: data, LEVEL: '1' },
    })

    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'Watch.' })
    await t.waitFor(session, 'turnFinished')
    // The notices name a hook that failed, should its line be missing.
    const notices = JSON.stringify(t.events(session, 'notice'))
    expect(readFileSync(join(data, 'env.log'), 'utf8').trim().split('\n'), notices).toEqual([
      `prompt ok ${root} ${data}`,
      `agent ok ${root} ${data}`,
    ])
    await t.engine.shutdown()
  })
})
