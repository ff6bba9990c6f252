// biome-ignore-all lint/suspicious/noTemplateCurlyInString: .mcp.json holds ${VAR} references, not templates
/**
 * Issue 38: a real-world-shaped Claude Code collection (written here, no copied content) loads whole
 * through the CLI's `--json` outputs: every agent, skill, command, hook and MCP server of every
 * format variant is listed, and nothing is a false error (each list exits 0).
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess, type Sandbox, sandbox } from './helpers.js'

async function put(root: string, path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true })
  await writeFile(join(root, path), text)
}

async function json(box: Sandbox, args: string[]) {
  const result = await runInProcess([...args, '--json', '--cwd', box.project], {
    cwd: box.root,
    env: box.env,
  })
  return { code: result.code, value: JSON.parse(result.stdout) as Record<string, unknown> }
}

type Named = { name: string } & Record<string, unknown>

/** A collection in the shapes real plugins and dotfiles use, each variant once. */
async function collection(project: string): Promise<void> {
  const agent = (file: string, header: string[]) =>
    put(project, `.claude/agents/${file}`, ['---', ...header, '---', 'You help.', ''].join('\n'))
  // A description running over unindented example lines with `user:`/`assistant:` in them.
  await agent('scaffolder.md', [
    'name: scaffolder',
    'description: Use this agent when the user asks to "scaffold a module". Examples:',
    '',
    '<example>',
    'Context: The user starts a new package',
    'user: "Scaffold a parser module"',
    'assistant: "I will use the scaffolder agent."',
    '</example>',
    '',
    'model: sonnet',
    'color: magenta',
    'tools: ["Write", "Read"]',
  ])
  // A plain multi-line description with `: ` in its indented continuation.
  await agent('auditor.md', [
    'name: auditor',
    'description: Audits a change before merge.',
    '  Trigger: the user asks whether a diff is safe',
    'tools: Read, Grep, Glob',
  ])
  // Tab-indented list, and frontmatter hooks (Stop read as SubagentStop).
  await agent('linter.md', [
    'name: linter',
    'description: Lints changed files',
    'tools:',
    '\t- Read',
    '\t- Bash',
    'hooks:',
    '  PostToolUse:',
    '    - matcher: Write|Edit',
    '      hooks:',
    '        - type: command',
    '          command: ./lint.sh',
    '  Stop:',
    '    - hooks:',
    '        - type: command',
    '          command: ./report.sh',
  ])
  // A `: ` and a leading `@` in one-line values.
  await agent('pinger.md', ['name: pinger', 'description: @mentions the owner when: a build fails'])

  // A skill whose name has spaces and capitals, with its own references/ and scripts/ folders.
  await put(
    project,
    '.claude/skills/release-notes/SKILL.md',
    '---\nname: Release Notes\ndescription: Write release notes\nwhen_to_use: Before tagging a release\nargument-hint: [version]\n---\nSee references/style.md and run scripts/log.sh.\n',
  )
  await put(project, '.claude/skills/release-notes/references/style.md', '# Style\n')
  await put(project, '.claude/skills/release-notes/scripts/log.sh', 'git log --oneline\n')
  // A helper folder beside the skills, not a skill.
  await put(project, '.claude/skills/shared/README.txt', 'helpers\n')

  // The /commit shape: `!` commands mid-line, a list argument-hint.
  await put(
    project,
    '.claude/commands/commit.md',
    '---\nallowed-tools: Bash(git status:*), Bash(git diff:*)\nargument-hint: [message]\ndescription: Create a git commit\n---\n## Context\n\n- Current git status: !`git status --short`\n- Current diff: !`git diff HEAD`\n\nCommit with $ARGUMENTS.\n',
  )

  // Hooks of current events and hyphenated matchers; a rule with a brace pattern.
  await put(
    project,
    '.claude/settings.json',
    JSON.stringify({
      hooks: {
        PostToolUseFailure: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './on-failure.sh' }] }],
        SubagentStop: [{ matcher: 'code-reviewer', hooks: [{ type: 'command', command: './on-review.sh' }] }],
        UserPromptSubmit: [{ matcher: 'ignored', hooks: [{ type: 'command', command: './on-prompt.sh' }] }],
        PermissionRequest: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './on-permission.sh' }] }],
        Setup: [{ matcher: 'init', hooks: [{ type: 'command', command: './on-setup.sh' }] }],
      },
    }),
  )
  await put(project, '.claude/rules/frontend.md', '---\npaths: src/**/*.{ts,tsx}\n---\nUse hooks.\n')

  // MCP servers: typed http, stdio, and the entries Claude Code refuses.
  await put(
    project,
    '.mcp.json',
    JSON.stringify({
      mcpServers: {
        docs: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
        untyped: { url: 'http://127.0.0.1:9/mcp' },
      },
    }),
  )
}

describe('a real-world-shaped Claude Code collection', () => {
  it('loads whole through agents|skills|commands|hooks|mcp list --json, with no false error', async () => {
    const box = await sandbox()
    await collection(box.project)
    await runInProcess(['trust', box.project], { cwd: box.root, env: box.env })

    const agents = await json(box, ['agents', 'list'])
    expect(agents.code).toBe(0)
    expect(agents.value.errors).toEqual([])
    const agent = (name: string) => (agents.value.agents as Named[]).find((entry) => entry.name === name)
    expect(agent('scaffolder')).toMatchObject({
      description: expect.stringContaining('user: "Scaffold a parser module"'),
      model: 'sonnet',
      tools: ['Write', 'Read'],
    })
    expect(agent('auditor')).toMatchObject({
      description: 'Audits a change before merge. Trigger: the user asks whether a diff is safe',
      tools: ['Read', 'Grep', 'Glob'],
    })
    expect(agent('linter')).toMatchObject({
      tools: ['Read', 'Bash'],
      hookConfig: {
        PostToolUse: [expect.objectContaining({ command: './lint.sh', matcher: 'Write|Edit' })],
        SubagentStop: [expect.objectContaining({ command: './report.sh' })],
      },
    })
    expect(agent('pinger')).toMatchObject({ description: '@mentions the owner when: a build fails' })

    const skills = await json(box, ['skills', 'list'])
    expect(skills.code).toBe(0)
    expect(skills.value.errors).toEqual([])
    expect((skills.value.skills as Named[]).map((skill) => skill.name)).toEqual(['release-notes'])
    expect((skills.value.skills as Named[])[0]).toMatchObject({
      description: 'Write release notes - Before tagging a release',
      argumentHint: 'version',
    })

    const commands = await json(box, ['commands', 'list'])
    expect(commands.code).toBe(0)
    const names = (commands.value.commands as Named[]).map((command) => command.name)
    expect(names).toEqual(expect.arrayContaining(['commit', 'release-notes']))
    const commit = (commands.value.commands as Array<Named & { definition?: Named }>).find(
      (command) => command.name === 'commit',
    )
    expect(commit?.definition).toMatchObject({ argumentHint: 'message' })

    const hooks = await json(box, ['hooks', 'list'])
    expect(hooks.code).toBe(0)
    const byEvent = hooks.value.hooks as Record<string, Array<Record<string, unknown>>>
    expect(byEvent.PostToolUseFailure).toEqual([expect.objectContaining({ command: './on-failure.sh' })])
    expect(byEvent.SubagentStop).toEqual([
      expect.objectContaining({ matcher: 'code-reviewer', matcherKind: 'exact' }),
    ])
    expect(byEvent.UserPromptSubmit).toEqual([expect.objectContaining({ matcherKind: 'ignored' })])
    // Kept, listed, and said never to run here.
    expect(byEvent.PermissionRequest).toHaveLength(1)
    expect(byEvent.Setup).toHaveLength(1)
    expect(Object.keys(hooks.value.neverFired as object)).toEqual(['Setup'])

    const mcp = await json(box, ['mcp', 'list'])
    expect((mcp.value.servers as Named[]).map((server) => server.name)).toEqual(['docs'])
    expect(JSON.stringify(mcp.value.notices)).toContain('has a \\"url\\" but no \\"type\\"')
  })
})

/**
 * A plugin in a local marketplace folder, shaped as official plugins are: a hook script found
 * through `$CLAUDE_PLUGIN_ROOT`, an agent, a command and a skill with its own folders.
 */
async function pluginMarketplace(root: string): Promise<string> {
  const market = join(root, 'market')
  await put(
    market,
    '.claude-plugin/marketplace.json',
    JSON.stringify({
      name: 'house',
      owner: { name: 'House' },
      plugins: [{ name: 'guard', source: './plugins/guard', description: 'Guards writes' }],
    }),
  )
  const plugin = (path: string, text: string) => put(join(market, 'plugins/guard'), path, text)
  await plugin('.claude-plugin/plugin.json', JSON.stringify({ name: 'guard', version: '0.2.0' }))
  await plugin(
    'hooks/hooks.json',
    JSON.stringify({
      hooks: {
        PreToolUse: [
          {
            matcher: 'Write|Edit',
            hooks: [{ type: 'command', command: 'sh "${CLAUDE_PLUGIN_ROOT}/hooks/check.sh"', timeout: 10 }],
          },
        ],
      },
    }),
  )
  await plugin('hooks/check.sh', 'cat >/dev/null\nexit 0\n')
  await plugin(
    'agents/warden.md',
    '---\nname: warden\ndescription: Reviews risky writes.\n  Use it before: a release\ncolor: cyan\n---\nYou review.\n',
  )
  await plugin('commands/scan.md', '---\ndescription: Scan\n---\nScan: !`ls`\n')
  await plugin(
    'skills/threat-model/SKILL.md',
    '---\nname: Threat Model\ndescription: Model threats\n---\nBody.\n',
  )
  await plugin('skills/threat-model/references/stride.md', '# STRIDE\n')
  return market
}

describe('a plugin, memory files and MCP entries in real-world shapes', () => {
  it('installs and lists a plugin whole; memory loads once, in order; refused MCP entries are named', async () => {
    const box = await sandbox()
    const market = await pluginMarketplace(box.root)
    const run = (args: string[]) => runInProcess(args, { cwd: box.root, env: box.env })
    expect((await run(['plugin', 'marketplace', 'add', market])).code).toBe(0)
    const installed = await run(['plugin', 'install', 'guard@house', '--yes'])
    expect(installed.stderr).toBe('')

    // Memory: CLAUDE.md imports AGENTS.md (loaded once), CLAUDE.local.md after, a brace rule.
    await put(box.project, 'CLAUDE.md', '# Project\n@AGENTS.md\n')
    await put(box.project, 'AGENTS.md', '# Agents\nRun the tests.\n')
    await put(box.project, 'CLAUDE.local.md', '# Mine\n')
    await put(box.project, '.claude/rules/ui.md', '---\npaths: src/**/*.{ts,tsx}\n---\nUse hooks.\n')
    await put(
      box.project,
      '.mcp.json',
      JSON.stringify({
        mcpServers: {
          docs: { type: 'http', url: 'http://127.0.0.1:9/mcp' },
          socket: { type: 'ws', url: 'ws://127.0.0.1:9/mcp' },
          helper: { type: 'http', url: 'http://127.0.0.1:9/mcp', headersHelper: 'print-token' },
          signin: { type: 'http', url: 'http://127.0.0.1:9/mcp', oauth: { clientId: 'x' } },
        },
      }),
    )
    await run(['trust', box.project])

    const plugins = await json(box, ['plugin', 'list'])
    expect(plugins.code).toBe(0)
    expect(plugins.value.plugins).toEqual([
      expect.objectContaining({
        id: 'guard@house',
        enabled: true,
        summary: expect.objectContaining({
          commands: ['guard:scan'],
          agents: ['guard:warden'],
          skills: ['guard:threat-model'],
          problems: [],
        }),
      }),
    ])
    const root = join(box.root, 'data/z-engine/plugins/cache/house/guard')
    const hooks = await json(box, ['hooks', 'list'])
    expect(hooks.code).toBe(0)
    // The hook runs with CLAUDE_PLUGIN_ROOT set, and its ${CLAUDE_PLUGIN_ROOT} replaced.
    expect((hooks.value.hooks as Record<string, unknown>).PreToolUse).toEqual([
      expect.objectContaining({
        command: `sh "${root}/hooks/check.sh"`,
        matcherKind: 'list',
        plugin: 'guard@house',
        env: expect.objectContaining({ CLAUDE_PLUGIN_ROOT: root }),
      }),
    ])
    for (const [kind, names] of [
      ['agents', ['guard:warden']],
      ['skills', ['guard:threat-model']],
      ['commands', ['guard:scan', 'guard:threat-model']],
    ] as const) {
      const listed = await json(box, [kind, 'list'])
      expect(listed.code, kind).toBe(0)
      expect(listed.value.errors ?? [], kind).toEqual([])
      const items = (listed.value[kind] as Named[]).filter((item) => item.name.startsWith('guard:'))
      expect(
        items.map((item) => item.name),
        kind,
      ).toEqual(names)
    }
    const warden = ((await json(box, ['agents', 'list'])).value.agents as Named[]).find(
      (agent) => agent.name === 'guard:warden',
    )
    expect(warden).toMatchObject({
      description: 'Reviews risky writes. Use it before: a release',
      plugin: 'guard@house',
    })

    const memory = await json(box, ['instructions'])
    expect(memory.code).toBe(0)
    expect((memory.value.files as Named[]).map((file) => [file.path, file.importedFrom ?? null])).toEqual([
      ['CLAUDE.md', null],
      ['AGENTS.md', 'CLAUDE.md'],
      ['CLAUDE.local.md', null],
    ])
    expect(memory.value.rules).toEqual([
      expect.objectContaining({ path: '.claude/rules/ui.md', globs: ['src/**/*.ts', 'src/**/*.tsx'] }),
    ])
    expect(memory.value.errors).toEqual([])

    const mcp = await json(box, ['mcp', 'list'])
    expect((mcp.value.servers as Named[]).map((server) => server.name)).toEqual(['docs'])
    expect(
      (mcp.value.notices as Array<{ code: string; key: string }>).map((notice) => [notice.code, notice.key]),
    ).toEqual([
      ['server_refused', 'mcp.servers.socket'],
      ['server_refused', 'mcp.servers.helper'],
      ['server_refused', 'mcp.servers.signin'],
    ])
  })
})

describe('mcp list', () => {
  it('shows the expanded ${VAR} values a server will start with, never a secret', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.mcp.json',
      JSON.stringify({
        mcpServers: {
          api: {
            type: 'http',
            url: 'http://127.0.0.1:9/${MCP_PATH:-mcp}',
            headers: { Authorization: 'Bearer ${API_TOKEN}', 'X-Team': 'core' },
          },
        },
      }),
    )
    await runInProcess(['trust', box.project], { cwd: box.root, env: box.env })
    const result = await runInProcess(['mcp', 'list', '--json', '--cwd', box.project], {
      cwd: box.root,
      env: { ...box.env, API_TOKEN: 'secret-value' },
    })
    expect(result.stdout).not.toContain('secret-value')
    const value = JSON.parse(result.stdout) as { servers: Array<Record<string, unknown>> }
    expect(value.servers[0]).toMatchObject({
      url: 'http://127.0.0.1:9/${MCP_PATH:-mcp}',
      resolved: {
        transport: 'http',
        url: 'http://127.0.0.1:9/mcp',
        headers: { Authorization: 'Bearer <$API_TOKEN>', 'X-Team': 'core' },
      },
    })
  })
})
