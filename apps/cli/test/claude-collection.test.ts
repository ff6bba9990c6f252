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
