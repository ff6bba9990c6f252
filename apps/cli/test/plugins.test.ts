/**
 * Issue 24 through the CLI: local marketplaces in Claude Code's layout (a folder, and a real git
 * repository cloned with the system git), one plugin installed, its namespaced agents, commands,
 * skills, hooks and MCP servers in every `list --json`, its hook firing in `exec`, and `disable`
 * removing all of it.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess, type Sandbox, sandbox } from './helpers.js'

async function put(root: string, path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true })
  await writeFile(join(root, path), text)
}

/** A marketplace with two plugins: `formatter` (everything, custom paths too) and `notes` (a skill only). */
async function marketplace(root: string, name = 'acme-tools'): Promise<string> {
  const market = join(root, name)
  await put(
    market,
    '.claude-plugin/marketplace.json',
    JSON.stringify({
      name,
      owner: { name: 'Acme' },
      plugins: [
        { name: 'formatter', source: './plugins/formatter', description: 'Formats code', version: '1.2.0' },
        { name: 'notes', source: './plugins/notes', strict: false },
      ],
    }),
  )
  const formatter = join(market, 'plugins/formatter')
  await put(
    formatter,
    '.claude-plugin/plugin.json',
    JSON.stringify({
      name: 'formatter',
      version: '1.2.0',
      description: 'Formats code',
      author: { name: 'Acme' },
      commands: ['./extra/lint.md'],
      mcpServers: { echo: { command: 'node', args: ['${CLAUDE_PLUGIN_ROOT}/server.js'] } },
    }),
  )
  await put(
    formatter,
    'commands/fix.md',
    '---\ndescription: Fix formatting\n---\nFix the formatting of $ARGUMENTS.\n',
  )
  await put(formatter, 'extra/lint.md', '---\ndescription: Lint\n---\nLint $ARGUMENTS.\n')
  await put(
    formatter,
    'agents/reviewer.md',
    '---\nname: reviewer\ndescription: Reviews formatting\nmodel: sonnet\n---\nReview the formatting.\n',
  )
  await put(
    formatter,
    'skills/style/SKILL.md',
    '---\nname: style\ndescription: The house style\n---\nUse tabs.\n',
  )
  await put(
    formatter,
    'hooks/hooks.json',
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Read',
            hooks: [{ type: 'command', command: 'sh ${CLAUDE_PLUGIN_ROOT}/hooks/mark.sh' }],
          },
        ],
      },
    }),
  )
  // Hooks run confined (issue 34): the project is where a plugin's hook may write.
  await put(formatter, 'hooks/mark.sh', 'echo fired >> "$CLAUDE_PROJECT_DIR/hook-fired.txt"\n')
  await chmod(join(formatter, 'hooks/mark.sh'), 0o755)
  await put(formatter, 'server.js', '// never started in these tests\n')
  await put(
    market,
    'plugins/notes/skills/jot/SKILL.md',
    '---\nname: jot\ndescription: Jot a note\n---\nWrite it down.\n',
  )
  return market
}

async function cli(box: Sandbox, args: string[], stdin?: string) {
  return runInProcess(args, { cwd: box.project, env: box.env, ...(stdin !== undefined ? { stdin } : {}) })
}

async function json(box: Sandbox, args: string[]): Promise<Record<string, unknown>> {
  const result = await cli(box, [...args, '--json'])
  try {
    return JSON.parse(result.stdout) as Record<string, unknown>
  } catch {
    throw new Error(
      `${args.join(' ')} printed no JSON (code ${result.code}): ${result.stdout}${result.stderr}`,
    )
  }
}

type Named = { name: string; plugin?: string }

describe('plugin marketplaces and installs (issue 24)', () => {
  it('adds a folder marketplace, installs one plugin after consent, lists its namespaced components, fires its hook, and disable removes them', async () => {
    const box = await sandbox()
    const market = await marketplace(box.root)

    const added = await cli(box, ['plugin', 'marketplace', 'add', market])
    expect(added.stderr).toBe('')
    expect(added.stdout).toContain('Added marketplace acme-tools')
    const markets = await json(box, ['plugin', 'marketplace', 'list'])
    expect(markets.marketplaces).toMatchObject([
      {
        name: 'acme-tools',
        status: 'added',
        kind: 'directory',
        plugins: [{ name: 'formatter' }, { name: 'notes' }],
      },
    ])

    // Without a terminal, install refuses until --yes, after showing what the plugin adds.
    const refused = await cli(box, ['plugin', 'install', 'formatter@acme-tools'])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('rerun with --yes')
    expect(refused.stdout).toContain('/formatter:fix')
    expect(refused.stdout).toContain('hook PreToolUse (Read): runs sh ')
    expect(refused.stdout).toContain('MCP server plugin_formatter_echo: runs node ')
    expect((await json(box, ['plugin', 'list'])).plugins).toEqual([])

    const installed = await cli(box, ['plugin', 'install', 'formatter@acme-tools', '--yes'])
    expect(installed.stderr).toBe('')
    expect(installed.stdout).toContain('Installed formatter@acme-tools')
    const settings = await readFile(join(box.root, 'config/z-engine/settings.toml'), 'utf8')
    expect(settings).toContain('[plugins.enabled]\n"formatter@acme-tools" = true')

    const plugins = (await json(box, ['plugin', 'list'])).plugins as Array<Record<string, unknown>>
    expect(plugins).toMatchObject([
      {
        id: 'formatter@acme-tools',
        version: '1.2.0',
        enabled: true,
        summary: {
          commands: ['formatter:fix', 'formatter:lint'],
          agents: ['formatter:reviewer'],
          skills: ['formatter:style'],
          mcpServers: [{ name: 'plugin_formatter_echo' }],
        },
      },
    ])
    const root = plugins[0]!.root as string
    expect(root.startsWith(join(box.root, 'data'))).toBe(true)

    // In words: one line per marketplace (its plugins in `marketplace show`), and `plugin show` in full.
    const marketLines = (await cli(box, ['plugin', 'marketplace', 'list'])).stdout.trim().split('\n')
    expect(marketLines).toEqual([
      `acme-tools  2 plugins   ${market}`,
      "(z-engine plugin marketplace show <name> lists a marketplace's plugins.)",
    ])
    const shown = (await cli(box, ['plugin', 'marketplace', 'show', 'acme-tools'])).stdout
    expect(shown).toContain('  formatter  1.2.0  Formats code')
    expect(shown).toContain('  notes')
    const detail = await cli(box, ['plugin', 'show', 'formatter@acme-tools'])
    expect(detail.stdout).toContain('formatter@acme-tools 1.2.0 — Formats code')
    expect(detail.stdout).toContain('  enabled; installed in ')
    expect(detail.stdout).toContain('/formatter:fix')

    const agents = (await json(box, ['agents', 'list'])).agents as Named[]
    expect(agents.find((agent) => agent.name === 'formatter:reviewer')).toMatchObject({
      plugin: 'formatter@acme-tools',
      source: { layer: 'plugin' },
      model: 'sonnet',
    })
    const commands = (await json(box, ['commands', 'list'])).commands as Array<{
      name: string
      definition?: Named
    }>
    expect(commands.find((command) => command.name === 'formatter:fix')?.definition).toMatchObject({
      plugin: 'formatter@acme-tools',
    })
    expect(commands.some((command) => command.name === 'formatter:lint')).toBe(true)
    const skills = (await json(box, ['skills', 'list'])).skills as Named[]
    expect(skills.find((skill) => skill.name === 'formatter:style')).toMatchObject({
      plugin: 'formatter@acme-tools',
    })
    const hooks = (await json(box, ['hooks', 'list'])).hooks as Record<string, Array<Record<string, unknown>>>
    expect(hooks.PreToolUse).toEqual([
      expect.objectContaining({
        matcher: 'Read',
        command: `sh ${root}/hooks/mark.sh`,
        plugin: 'formatter@acme-tools',
        env: { CLAUDE_PLUGIN_ROOT: root, CLAUDE_PLUGIN_DATA: expect.stringMatching(/formatter-acme-tools$/) },
      }),
    ])
    const servers = (await json(box, ['mcp', 'list'])).servers as Array<Record<string, unknown>>
    expect(servers).toEqual([
      expect.objectContaining({
        name: 'plugin_formatter_echo',
        command: 'node',
        args: [`${root}/server.js`],
        layer: 'plugin',
        plugin: 'formatter@acme-tools',
      }),
    ])
    const settingsExplain = await json(box, ['settings', 'explain'])
    expect(JSON.stringify(settingsExplain)).toContain(`${root}/server.js`)

    // The hook fires in a real session.
    const script = await box.script('read.jsonl', [
      { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: 'README.md' } }] },
      { blocks: [{ type: 'text', text: 'Read it.' }] },
    ])
    const run = await cli(box, ['exec', '--model', `scripted:${script}`, '--output-format', 'json', 'read'])
    expect(run.code).toBe(0)
    expect(await readFile(join(box.project, 'hook-fired.txt'), 'utf8')).toBe('fired\n')

    // Disabling removes every component; enabling brings them back.
    expect((await cli(box, ['plugin', 'disable', 'formatter@acme-tools'])).code).toBe(0)
    expect(((await json(box, ['agents', 'list'])).agents as Named[]).some((agent) => agent.plugin)).toBe(
      false,
    )
    expect(((await json(box, ['skills', 'list'])).skills as Named[]).some((skill) => skill.plugin)).toBe(
      false,
    )
    expect((await json(box, ['hooks', 'list'])).hooks).toEqual({})
    expect(
      ((await json(box, ['commands', 'list'])).commands as Array<{ name: string }>).some((command) =>
        command.name.startsWith('formatter:'),
      ),
    ).toBe(false)
    expect((await json(box, ['plugin', 'list'])).plugins).toMatchObject([{ enabled: false }])
    expect((await cli(box, ['plugin', 'enable', 'formatter@acme-tools'])).code).toBe(0)
    expect(((await json(box, ['agents', 'list'])).agents as Named[]).some((agent) => agent.plugin)).toBe(true)

    // Uninstalling deletes the copy and the setting.
    expect((await cli(box, ['plugin', 'uninstall', 'formatter@acme-tools'])).code).toBe(0)
    expect(existsSync(root)).toBe(false)
    expect(await readFile(join(box.root, 'config/z-engine/settings.toml'), 'utf8')).not.toContain(
      'formatter@',
    )
  }, 120_000)

  it('clones a git marketplace, updates it by pulling, and removing it uninstalls its plugins', async () => {
    const box = await sandbox()
    const source = await marketplace(box.root, 'git-market')
    const git = (args: string[]) =>
      execFileSync('git', args, {
        cwd: source,
        env: {
          ...box.env,
          GIT_AUTHOR_NAME: 't',
          GIT_AUTHOR_EMAIL: 't@t',
          GIT_COMMITTER_NAME: 't',
          GIT_COMMITTER_EMAIL: 't@t',
        },
      })
    git(['init', '-q'])
    git(['add', '.'])
    git(['commit', '-qm', 'market'])

    const added = await cli(box, ['plugin', 'marketplace', 'add', `file://${source}`])
    expect(added.stderr).toBe('')
    const listed = (await json(box, ['plugin', 'marketplace', 'list'])).marketplaces as Array<
      Record<string, unknown>
    >
    expect(listed).toMatchObject([{ name: 'git-market', kind: 'git' }])
    expect(String(listed[0]!.root).startsWith(join(box.root, 'data'))).toBe(true)

    // A third plugin committed upstream appears after update.
    const manifest = JSON.parse(await readFile(join(source, '.claude-plugin/marketplace.json'), 'utf8'))
    manifest.plugins.push({ name: 'extra', source: './plugins/notes' })
    await writeFile(join(source, '.claude-plugin/marketplace.json'), JSON.stringify(manifest))
    git(['commit', '-qam', 'extra'])
    const updated = await json(box, ['plugin', 'marketplace', 'update'])
    expect(updated.marketplaces).toEqual([{ name: 'git-market', plugins: 3 }])

    expect((await cli(box, ['plugin', 'install', 'notes@git-market', '--yes'])).code).toBe(0)
    expect(((await json(box, ['skills', 'list'])).skills as Named[]).map((skill) => skill.name)).toContain(
      'notes:jot',
    )

    const removed = await cli(box, ['plugin', 'marketplace', 'remove', 'git-market'])
    expect(removed.stdout).toContain('uninstalled notes@git-market')
    expect((await json(box, ['plugin', 'list'])).plugins).toEqual([])
    expect(existsSync(String(listed[0]!.root))).toBe(false)
  })

  it('loads project-enabled plugins only in a trusted workspace, and installs from a marketplace settings declare', async () => {
    const box = await sandbox()
    const market = await marketplace(box.root)
    await put(
      box.project,
      '.claude/settings.json',
      JSON.stringify({
        enabledPlugins: { 'notes@acme-tools': true },
        extraKnownMarketplaces: { 'acme-tools': { source: { source: 'directory', path: market } } },
      }),
    )
    // Untrusted: the project's marketplace and plugin choices are withheld.
    expect((await json(box, ['plugin', 'marketplace', 'list'])).marketplaces).toEqual([])
    expect((await cli(box, ['trust'])).code).toBe(0)
    expect((await json(box, ['plugin', 'marketplace', 'list'])).marketplaces).toMatchObject([
      { name: 'acme-tools', status: 'declared' },
    ])
    // Installing from the declared marketplace adds it first.
    expect((await cli(box, ['plugin', 'install', 'notes@acme-tools', '--yes'])).code).toBe(0)
    expect(((await json(box, ['skills', 'list'])).skills as Named[]).map((skill) => skill.name)).toContain(
      'notes:jot',
    )
    // The user disables it; revoking trust also hides the project's enablement.
    await cli(box, ['plugin', 'disable', 'notes@acme-tools'])
    await writeFile(join(box.root, 'config/z-engine/settings.toml'), '')
    expect(((await json(box, ['skills', 'list'])).skills as Named[]).map((skill) => skill.name)).toContain(
      'notes:jot',
    )
    expect((await cli(box, ['trust', '--revoke'])).code).toBe(0)
    expect(((await json(box, ['skills', 'list'])).skills as Named[]).some((skill) => skill.plugin)).toBe(
      false,
    )
  })

  it('says what to do for an unknown marketplace, plugin or a folder that is not a marketplace', async () => {
    const box = await sandbox()
    const notMarket = await cli(box, ['plugin', 'marketplace', 'add', box.project])
    expect(notMarket.code).toBe(1)
    expect(notMarket.stderr).toContain('has no .claude-plugin/marketplace.json')
    const unknown = await cli(box, ['plugin', 'install', 'x@nowhere', '--yes'])
    expect(unknown.stderr).toContain('no marketplace named nowhere')
    await cli(box, ['plugin', 'marketplace', 'add', await marketplace(box.root)])
    const missing = await cli(box, ['plugin', 'install', 'nope@acme-tools', '--yes'])
    expect(missing.stderr).toContain('has no plugin nope (it lists: formatter, notes)')
    const badId = await cli(box, ['plugin', 'enable', 'formatter'])
    expect(badId.stderr).toContain('not installed')
  })
})
