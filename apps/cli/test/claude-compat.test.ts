import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess, type Sandbox, sandbox } from './helpers.js'

/**
 * Claude Code compatibility (issue 18): one fixture per behaviour of Claude Code's loaders, each
 * checked through the CLI's `--json` output as a user would inspect it.
 */

async function put(root: string, path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true })
  await writeFile(join(root, path), text)
}

type Entry = Record<string, unknown> & { name: string; warnings: Array<{ code: string; message: string }> }
type Issue = { code: string; path: string; message: string }

async function list(box: Sandbox, kind: 'agents' | 'skills' | 'commands') {
  const result = await runInProcess([kind, 'list', '--json', '--cwd', box.project], {
    cwd: box.root,
    env: box.env,
  })
  const value = JSON.parse(result.stdout) as Record<string, unknown>
  const entries =
    kind === 'commands'
      ? (value.commands as Array<{ name: string; definition?: Entry }>)
          .filter((entry) => entry.definition !== undefined)
          .map((entry) => ({ ...entry.definition!, name: entry.name }))
      : (value[kind] as Entry[])
  const find = (name: string) => entries.find((entry) => entry.name === name)
  return { code: result.code, entries, find, errors: value.errors as Issue[] }
}

const codes = (entry: Entry | undefined) => entry?.warnings.map((warning) => warning.code) ?? []

describe('Claude Code compatibility: frontmatter parsing', () => {
  it('retries a value YAML rejects (": " in a description, "#" in text, bad escapes) by quoting it', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/agents/colon.md',
      '---\nname: colon\ndescription: Use when: the tests fail\ntools: [Read, Grep]\n---\nFix it.\n',
    )
    await put(
      box.project,
      '.claude/agents/hash.md',
      '---\nname: hash\ndescription: Fixes C# issues: see #12\n---\nFix it.\n',
    )
    await put(
      box.project,
      '.claude/agents/escape.md',
      '---\nname: escape\ndescription: "Line one\\qline two"\n---\nFix it.\n',
    )
    const agents = await list(box, 'agents')
    expect(agents.find('colon')).toMatchObject({
      description: 'Use when: the tests fail',
      tools: ['Read', 'Grep'],
    })
    expect(codes(agents.find('colon'))).toContain('frontmatter_repaired')
    expect(agents.find('hash')).toMatchObject({ description: 'Fixes C# issues: see #12' })
    expect(agents.find('escape')).toMatchObject({ description: 'Line one\\qline two' })
    expect(agents.errors).toEqual([])
  })

  it('loads the body with empty metadata and a frontmatter_invalid warning when the header stays unparsable', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/commands/broken.md',
      // A line before any field cannot be given to one, even line by line.
      '---\nnot a key line\n  - x\ndescription: ok\n---\nDo $ARGUMENTS.\n',
    )
    const commands = await list(box, 'commands')
    expect(commands.find('broken')).toMatchObject({ body: 'Do $ARGUMENTS.', frontmatter: {} })
    expect(codes(commands.find('broken'))).toEqual(['frontmatter_invalid'])
  })

  it('loads a SKILL.md without frontmatter, named after its folder, described by its first paragraph', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/skills/release-notes/SKILL.md',
      '# Release notes\n\nWrite release notes\nfrom the log.\n\nSteps...\n',
    )
    const skills = await list(box, 'skills')
    expect(skills.find('release-notes')).toMatchObject({
      description: 'Write release notes from the log.',
      body: expect.stringContaining('Steps...'),
    })
    expect(skills.errors).toEqual([])
  })

  it('ignores an agent file without frontmatter silently', async () => {
    const box = await sandbox()
    await put(box.project, '.claude/agents/README.md', '# Our agents\n\nNotes for humans.\n')
    const agents = await list(box, 'agents')
    expect(agents.find('README')).toBeUndefined()
    expect(agents.errors).toEqual([])
    expect(agents.code).toBe(0)
  })

  it('reads numbers given as strings and enum values in any case', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/agents/loose.md',
      '---\nname: loose\ndescription: Loose types\nmaxTurns: "25"\nmodel: Inherit\npermissionMode: AcceptEdits\nisolation: Worktree\n---\nGo.\n',
    )
    const agents = await list(box, 'agents')
    expect(agents.find('loose')).toMatchObject({
      maxTurns: 25,
      model: 'inherit',
      permissionMode: 'acceptEdits',
      isolation: 'worktree',
    })
    expect(agents.find('loose')?.warnings).toEqual([])
  })

  it('accepts CRLF line endings and a byte-order mark', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/agents/windows.md',
      '\uFEFF---\r\nname: windows\r\ndescription: Written on Windows\r\ntools: Read, Grep\r\n---\r\nLine one.\r\nLine two.\r\n',
    )
    await put(
      box.project,
      '.claude/skills/bom/SKILL.md',
      '\uFEFF---\r\nname: bom\r\ndescription: BOM skill\r\n---\r\nStep.\r\n',
    )
    const agents = await list(box, 'agents')
    expect(agents.find('windows')).toMatchObject({
      description: 'Written on Windows',
      tools: ['Read', 'Grep'],
      prompt: 'Line one.\nLine two.',
    })
    const skills = await list(box, 'skills')
    expect(skills.find('bom')).toMatchObject({ description: 'BOM skill', body: 'Step.' })
  })
})

describe('Claude Code compatibility: agents', () => {
  it('scans agent folders recursively', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/agents/team/backend/db-expert.md',
      '---\nname: db-expert\ndescription: Databases\n---\nSQL.\n',
    )
    const agents = await list(box, 'agents')
    expect(agents.find('db-expert')).toMatchObject({ source: { layer: 'projectClaude' } })
  })

  it('skips an agent without a name (name_missing) or with an invalid name (name_invalid), never using the file name', async () => {
    const box = await sandbox()
    await put(box.project, '.claude/agents/nameless.md', '---\ndescription: No name\n---\nBody.\n')
    await put(
      box.project,
      '.claude/agents/spaced.md',
      '---\nname: my agent\ndescription: Bad name\n---\nBody.\n',
    )
    const agents = await list(box, 'agents')
    expect(agents.find('nameless')).toBeUndefined()
    expect(agents.find('my agent')).toBeUndefined()
    expect(agents.errors.map((error) => [error.code, error.path])).toEqual([
      ['name_missing', join(box.project, '.claude/agents/nameless.md')],
      ['name_invalid', join(box.project, '.claude/agents/spaced.md')],
    ])
    expect(agents.code).toBe(1)
  })

  it('reads Task as the old name of Agent', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/agents/boss.md',
      '---\nname: boss\ndescription: Delegates\ntools: Task, Read\n---\nDelegate.\n',
    )
    const agents = await list(box, 'agents')
    expect(agents.find('boss')).toMatchObject({ tools: ['Agent', 'Read'] })
  })

  it('takes tool lists as comma strings, YAML lists or space-separated, keeping Bash(git add *) whole', async () => {
    const box = await sandbox()
    const agent = (name: string, tools: string) =>
      `---\nname: ${name}\ndescription: Tools as ${name}\ntools: ${tools}\n---\nWork.\n`
    await put(box.project, '.claude/agents/commas.md', agent('commas', 'Read, Bash(git add *), Grep'))
    await put(
      box.project,
      '.claude/agents/yaml.md',
      agent('yaml', '\n  - Read\n  - Bash(git add *)\n  - Grep'),
    )
    await put(box.project, '.claude/agents/spaces.md', agent('spaces', 'Read Bash(git add *) Grep'))
    const agents = await list(box, 'agents')
    for (const name of ['commas', 'yaml', 'spaces']) {
      expect(agents.find(name)).toMatchObject({ tools: ['Read', 'Bash(git add *)', 'Grep'] })
      expect(codes(agents.find(name))).toContain('tool_pattern')
    }
  })

  it('keeps and exposes skills, hooks, memory, background, effort, color, initialPrompt and permissionMode', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/agents/full.md',
      [
        '---',
        'name: full',
        'description: Every field',
        'skills: [pdf, release-notes]',
        'hooks:',
        '  PreToolUse:',
        '    - matcher: Bash',
        '      hooks: [{ type: command, command: ./check.sh }]',
        'memory: project',
        'background: true',
        'effort: High',
        'color: purple',
        'initialPrompt: Start with the failing test',
        'permissionMode: plan',
        '---',
        'Everything.',
        '',
      ].join('\n'),
    )
    const agents = await list(box, 'agents')
    expect(agents.find('full')).toMatchObject({
      skills: ['pdf', 'release-notes'],
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './check.sh' }] }] },
      memory: 'project',
      background: true,
      effort: 'high',
      color: 'purple',
      initialPrompt: 'Start with the failing test',
      permissionMode: 'plan',
      // The hooks as a session runs them while the agent works.
      hookConfig: { PreToolUse: [{ command: './check.sh', matcher: 'Bash' }] },
    })
    // Kept is not applied: each such field says so instead of pretending (hooks are applied).
    expect(codes(agents.find('full')).filter((code) => code === 'field_not_applied')).toHaveLength(5)
  })
})

async function expand(box: Sandbox, name: string, args: string[]) {
  const result = await runInProcess(['commands', 'expand', name, ...args, '--json', '--cwd', box.project], {
    cwd: box.root,
    env: box.env,
  })
  expect(result.code, result.stderr).toBe(0)
  const value = JSON.parse(result.stdout) as { content: Array<{ text: string }>; notices: string[] }
  return { body: value.content[1]!.text, notices: value.notices }
}

describe('Claude Code compatibility: skills', () => {
  it('offers every skill as a /name command unless user-invocable: false', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/skills/deploy/SKILL.md',
      '---\nname: deploy\ndescription: Deploy it\n---\nDeploy $ARGUMENTS.\n',
    )
    await put(
      box.project,
      '.claude/skills/style/SKILL.md',
      '---\nname: style\ndescription: House style\nuser-invocable: false\n---\nUse tabs.\n',
    )
    const commands = await list(box, 'commands')
    expect(commands.find('deploy')).toMatchObject({
      body: 'Deploy $ARGUMENTS.',
      skillDir: join(box.project, '.claude/skills/deploy'),
    })
    expect(commands.find('style')).toBeUndefined()
    expect((await expand(box, 'deploy', ['staging'])).body).toContain('Deploy staging.')
  })

  it('keeps disable-model-invocation, allowed-tools, license, metadata, paths, context, agent and hooks', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/skills/pdf/SKILL.md',
      [
        '---',
        'name: pdf',
        'description: Work with PDFs',
        'disable-model-invocation: true',
        'allowed-tools: Read, Bash(pdftotext *)',
        'license: MIT',
        'metadata: { owner: docs-team }',
        'paths: ["**/*.pdf"]',
        'context: fork',
        'agent: explore',
        'hooks: { Stop: [] }',
        '---',
        'Extract.',
        '',
      ].join('\n'),
    )
    await put(box.project, '.claude/skills/pdf/forms.md', 'Supporting file.\n')
    const skills = await list(box, 'skills')
    expect(skills.find('pdf')).toMatchObject({
      disableModelInvocation: true,
      allowedTools: ['Read', 'Bash(pdftotext *)'],
      license: 'MIT',
      metadata: { owner: 'docs-team' },
      paths: ['**/*.pdf'],
      context: 'fork',
      agent: 'explore',
      hooks: { Stop: [] },
      baseDir: join(box.project, '.claude/skills/pdf'),
    })
    expect(codes(skills.find('pdf'))).toContain('field_not_applied')
  })

  it('substitutes ${CLAUDE_SKILL_DIR} and named arguments', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/skills/fix/SKILL.md',
      '---\nname: fix\ndescription: Fix an issue\narguments: [issue, branch]\n---\nFix $issue on $branch; see ${CLAUDE_SKILL_DIR}/notes.md\n',
    )
    const { body } = await expand(box, 'fix', ['42', 'hotfix'])
    expect(body).toContain(`Fix 42 on hotfix; see ${join(box.project, '.claude/skills/fix')}/notes.md`)
  })

  it('warns (name_mismatch) when the folder name differs from name', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/skills/charts/SKILL.md',
      '---\nname: chart\ndescription: Charts\n---\nDraw.\n',
    )
    const skills = await list(box, 'skills')
    expect(codes(skills.find('chart'))).toEqual(['name_mismatch'])
  })
})

describe('Claude Code compatibility: commands and arguments', () => {
  it('substitutes $ARGUMENTS, $ARGUMENTS[N], $N from 0, keeps a missing $N and \\$ as written', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/commands/args.md',
      'all=[$ARGUMENTS] first=[$0] second=[$ARGUMENTS[1]] third=[$2] price=\\$5\n',
    )
    const { body } = await expand(box, 'args', ['one', '"two words"'])
    expect(body).toContain('all=[one "two words"] first=[one] second=[two words] third=[$2] price=$5')
  })

  it('runs !`cmd` at a line start and mid-line after whitespace, and fenced ```! blocks', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/commands/shell.md',
      '---\nallowed-tools: Bash(echo *)\n---\nStart:\n!`echo line-start`\nInline !`echo inline` stays.\n```!\necho fenced\n```\n',
    )
    const { body } = await expand(box, 'shell', [])
    expect(body).toContain('Start:\nline-start\n')
    expect(body).toContain('Inline inline stays.')
    expect(body).toContain('fenced')
    expect(body).not.toContain('```!')
  })

  it("reports @file mentions the user typed that do not exist; a template's own @word naming no file is text", async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/commands/see.md',
      'Read @README.md and $ARGUMENTS; use @pytest.fixture, @types/node and @docs/gone.md\n',
    )
    const { body, notices } = await expand(box, 'see', ['@docs/missing.md'])
    expect(body).toContain('<file path="README.md">')
    expect(body).toContain('use @pytest.fixture, @types/node and @docs/gone.md')
    expect(notices).toEqual(['@docs/missing.md was not inlined: there is no such file.'])
  })

  it('namespaces commands from sub-folders and keeps disable-model-invocation, context, agent, hooks', async () => {
    const box = await sandbox()
    await put(
      box.project,
      '.claude/commands/git/ship.md',
      '---\ndescription: Ship\ndisable-model-invocation: true\ncontext: fork\nagent: general\nhooks: { Stop: [] }\n---\nShip it.\n',
    )
    const commands = await list(box, 'commands')
    expect(commands.find('git:ship')).toMatchObject({
      disableModelInvocation: true,
      context: 'fork',
      agent: 'general',
      hooks: { Stop: [] },
    })
  })
})
