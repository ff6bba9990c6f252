import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { compareNames, loadAgentDefinitions, loadCommandDefinitions, loadSkillDefinitions } from './load.js'
import type { DefinitionRoots } from './types.js'

let base: string
let roots: DefinitionRoots

function write(path: string, text: string): string {
  mkdirSync(dirname(path), { recursive: true })
  writeFileSync(path, text)
  return path
}

const agent = (name: string, description: string, extra = '') =>
  `---\nname: ${name}\ndescription: ${description}\n${extra}---\nYou are ${name}.\n`

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), 'z-defs-'))
  roots = {
    projectRoot: join(base, 'project'),
    home: join(base, 'home'),
    configDir: join(base, 'home', '.config', 'z-engine'),
    compatClaude: true,
  }
  mkdirSync(roots.projectRoot, { recursive: true })
})
afterEach(() => rmSync(base, { recursive: true, force: true }))

describe('loadAgentDefinitions', () => {
  it('returns the five built-ins when nothing is configured', async () => {
    const loaded = await loadAgentDefinitions(roots)
    expect(loaded.definitions.map((definition) => definition.name)).toEqual([
      'explore',
      'general',
      'plan',
      'review',
      'verify',
    ])
    expect(loaded.errors).toEqual([])
    const explore = loaded.definitions.find((definition) => definition.name === 'explore')!
    expect(explore).toMatchObject({ permissionMode: 'plan', model: 'fast', source: { layer: 'builtin' } })
    expect(explore.tools).toContain('Grep')
  })

  it('layers ~/.claude < user config < project .claude < project .z-engine, and custom replaces built-in', async () => {
    write(join(roots.home, '.claude/agents/a.md'), agent('tester', 'from user claude'))
    write(join(roots.configDir, 'agents/a.md'), agent('tester', 'from user'))
    write(join(roots.projectRoot, '.claude/agents/a.md'), agent('tester', 'from project claude'))
    write(join(roots.projectRoot, '.z-engine/agents/tester.md'), agent('tester', 'from project'))
    write(join(roots.projectRoot, '.claude/agents/explore.md'), agent('explore', 'custom explore'))
    const loaded = await loadAgentDefinitions(roots)
    const tester = loaded.definitions.find((definition) => definition.name === 'tester')!
    expect(tester.description).toBe('from project')
    expect(tester.source.layer).toBe('project')
    expect(
      loaded.shadowed
        .filter((definition) => definition.name === 'tester')
        .map((definition) => definition.source.layer),
    ).toEqual(['userClaude', 'user', 'projectClaude'])
    expect(loaded.definitions.find((definition) => definition.name === 'explore')!.description).toBe(
      'custom explore',
    )
  })

  it('ignores .claude folders when compat.claude is off', async () => {
    write(join(roots.projectRoot, '.claude/agents/a.md'), agent('claude-only', 'x'))
    const loaded = await loadAgentDefinitions({ ...roots, compatClaude: false })
    expect(loaded.definitions.some((definition) => definition.name === 'claude-only')).toBe(false)
  })

  it('parses every field, keeps the raw frontmatter, and warns about bad or unknown ones', async () => {
    const path = write(
      join(roots.projectRoot, '.z-engine/agents/fixer.md'),
      agent(
        'fixer',
        'fixes things',
        'tools: Read, Edit, Bash(npm test:*)\ndisallowedTools: [WebFetch]\nmodel: fast\npermissionMode: bypassPermissions\nmaxTurns: 0\nisolation: worktree\nflavour: spicy\n',
      ),
    )
    const loaded = await loadAgentDefinitions(roots)
    const fixer = loaded.definitions.find((definition) => definition.name === 'fixer')!
    expect(fixer).toMatchObject({
      tools: ['Read', 'Edit', 'Bash(npm test:*)'],
      disallowedTools: ['WebFetch'],
      model: 'fast',
      permissionMode: 'bypass',
      isolation: 'worktree',
      prompt: 'You are fixer.',
      source: { layer: 'project', path },
    })
    expect(fixer.maxTurns).toBeUndefined()
    expect(fixer.frontmatter.flavour).toBe('spicy')
    expect(fixer.warnings.map((warning) => warning.code).sort()).toEqual([
      'field_invalid',
      'field_unknown',
      'tool_pattern',
    ])
    const messages = fixer.warnings.map((warning) => warning.message).join('\n')
    expect(messages).toMatch(/maxTurns.*positive whole number/)
    expect(messages).toMatch(/unknown field "flavour"/)
  })

  it('reports a broken file with its line and still loads the others', async () => {
    const broken = write(
      join(roots.projectRoot, '.z-engine/agents/broken.md'),
      // A list left open cannot be read even line by line (a stray text line would join the description).
      '---\nname: broken\ndescription: ok\ntools: [Read, Grep\n  model: x: y\n---\nbody\n',
    )
    const noDescription = write(join(roots.configDir, 'agents/nodesc.md'), '---\nname: nodesc\n---\nbody\n')
    write(join(roots.projectRoot, '.z-engine/agents/good.md'), agent('good', 'works'))
    const loaded = await loadAgentDefinitions(roots)
    expect(loaded.definitions.map((definition) => definition.name)).toContain('good')
    expect(loaded.errors).toHaveLength(2)
    const brokenError = loaded.errors.find((error) => error.path === broken)!
    expect(brokenError).toMatchObject({ code: 'frontmatter_invalid' })
    expect(brokenError.message).toMatch(/Invalid YAML.*\(line [34]\)/)
    expect(loaded.errors.find((error) => error.path === noDescription)!.message).toMatch(
      /needs a "description"/,
    )
  })

  it('skips project files that link outside the project', async () => {
    const outside = write(join(base, 'elsewhere/evil.md'), agent('evil', 'outside'))
    mkdirSync(join(roots.projectRoot, '.z-engine/agents'), { recursive: true })
    symlinkSync(outside, join(roots.projectRoot, '.z-engine/agents/evil.md'))
    const loaded = await loadAgentDefinitions(roots)
    expect(loaded.definitions.some((definition) => definition.name === 'evil')).toBe(false)
    expect(loaded.errors[0]!.message).toMatch(/links outside the project/)
  })
})

describe('headers Claude Code writes that strict YAML rejects', () => {
  it('recovers the right fields of real-world-shaped broken headers, line by line', async () => {
    // An agent whose description runs over unindented example lines with `user:` in them.
    write(
      join(roots.projectRoot, '.claude/agents/creator.md'),
      [
        '---',
        'name: widget-maker',
        'description: Use this agent when the user asks to "make a widget". Examples:',
        '',
        '<example>',
        'Context: The user wants a widget',
        'user: "Make me a widget"',
        'assistant: "I will use the widget-maker agent."',
        '</example>',
        '',
        'model: sonnet',
        'color: magenta',
        'tools: ["Write", "Read"]',
        '---',
        'You make widgets.',
      ].join('\n'),
    )
    // A plain multi-line description with `: ` in its indented continuation.
    write(
      join(roots.projectRoot, '.claude/agents/folded.md'),
      '---\nname: folded\ndescription: Reviews code after a change.\n  Trigger: the user asks for a review\n  of recent work\ntools: Read, Grep\n---\nReview.\n',
    )
    // Tab-indented list (Claude Code indents tabs as two spaces each).
    write(
      join(roots.projectRoot, '.claude/agents/tabbed.md'),
      '---\nname: tabbed\ndescription: Tab indented\ntools:\n\t- Read\n\t- Grep\n---\nTabs.\n',
    )
    // `: ` and a leading `@` in one-line values.
    write(
      join(roots.projectRoot, '.claude/agents/quoted.md'),
      '---\nname: quoted\ndescription: @reviewer use when: the tests fail\nmodel: haiku\n---\nQuote.\n',
    )
    const loaded = await loadAgentDefinitions(roots)
    expect(loaded.errors).toEqual([])
    const byName = (name: string) => loaded.definitions.find((definition) => definition.name === name)
    expect(byName('widget-maker')).toMatchObject({
      description: [
        'Use this agent when the user asks to "make a widget". Examples:',
        '',
        '<example>',
        'Context: The user wants a widget',
        'user: "Make me a widget"',
        'assistant: "I will use the widget-maker agent."',
        '</example>',
      ].join('\n'),
      model: 'sonnet',
      tools: ['Write', 'Read'],
    })
    // Claude Code shows an unknown colour as none; the agent loads.
    expect(byName('widget-maker')!.color).toBeUndefined()
    expect(byName('widget-maker')!.warnings).toContainEqual(
      expect.objectContaining({
        code: 'field_invalid',
        message: expect.stringContaining(
          '"color" must be one of red, blue, green, yellow, purple, orange, pink, cyan; it was ignored',
        ),
      }),
    )
    expect(byName('widget-maker')!.warnings.map((warning) => warning.code)).toContain('frontmatter_repaired')
    expect(byName('folded')).toMatchObject({
      description: 'Reviews code after a change. Trigger: the user asks for a review of recent work',
      tools: ['Read', 'Grep'],
    })
    expect(byName('tabbed')).toMatchObject({ tools: ['Read', 'Grep'] })
    expect(byName('quoted')).toMatchObject({ description: '@reviewer use when: the tests fail' })
  })
})

describe('loadCommandDefinitions', () => {
  it('names commands by path, parses frontmatter, and lets the project win', async () => {
    write(join(roots.home, '.claude/commands/deploy.md'), 'Deploy from user claude')
    write(join(roots.projectRoot, '.claude/commands/deploy.md'), 'Deploy from project claude')
    write(
      join(roots.projectRoot, '.z-engine/commands/git/commit.md'),
      '---\ndescription: Commit\nargument-hint: "[message]"\nallowed-tools: Bash(git add:*), Bash(git commit:*)\nmodel: fast\n---\nCommit: $ARGUMENTS\n',
    )
    const loaded = await loadCommandDefinitions(roots)
    expect(loaded.definitions.map((definition) => definition.name)).toEqual(['deploy', 'git:commit'])
    const deploy = loaded.definitions[0]!
    expect(deploy).toMatchObject({
      description: 'Deploy from project claude',
      source: { layer: 'projectClaude' },
    })
    expect(loaded.definitions[1]).toMatchObject({
      description: 'Commit',
      argumentHint: '[message]',
      allowedTools: ['Bash(git add:*)', 'Bash(git commit:*)'],
      model: 'fast',
      body: 'Commit: $ARGUMENTS',
    })
  })

  it('reports an empty command file and keeps the rest', async () => {
    const empty = write(
      join(roots.projectRoot, '.z-engine/commands/empty.md'),
      '---\ndescription: nothing\n---\n',
    )
    write(join(roots.projectRoot, '.z-engine/commands/ok.md'), 'fine')
    const loaded = await loadCommandDefinitions(roots)
    expect(loaded.definitions.map((definition) => definition.name)).toEqual(['ok'])
    expect(loaded.errors).toEqual([
      { code: 'body_empty', path: empty, layer: 'project', message: expect.stringMatching(/empty body/) },
    ])
  })
})

describe('loadSkillDefinitions', () => {
  it('loads SKILL.md folders and reports folders without one', async () => {
    write(
      join(roots.projectRoot, '.z-engine/skills/pdf/SKILL.md'),
      '---\nname: pdf\ndescription: Work with PDFs\n---\nUse pdftotext.\n',
    )
    write(
      join(roots.configDir, 'skills/charts/SKILL.md'),
      '---\nname: chart\ndescription: Draw charts\n---\nUse vega.\n',
    )
    // A folder without SKILL.md is passed over (Claude Code); one with a misspelt skill.md is reported.
    mkdirSync(join(roots.projectRoot, '.claude/skills/shared-lib'), { recursive: true })
    write(join(roots.projectRoot, '.claude/skills/typo/Skill.md'), '---\nname: typo\n---\nx\n')
    const loaded = await loadSkillDefinitions(roots)
    expect(loaded.definitions.map((definition) => definition.name)).toEqual(['chart', 'pdf'])
    const pdf = loaded.definitions.find((definition) => definition.name === 'pdf')!
    expect(pdf).toMatchObject({
      body: 'Use pdftotext.',
      baseDir: join(roots.projectRoot, '.z-engine/skills/pdf'),
    })
    expect(loaded.definitions.find((definition) => definition.name === 'chart')!.warnings[0]).toMatchObject({
      code: 'name_mismatch',
      message: expect.stringMatching(/differs from its folder/),
    })
    expect(loaded.errors).toHaveLength(1)
    expect(loaded.errors[0]!.message).toMatch(/has Skill.md but no SKILL.md/)
  })

  it('joins a YAML-list argument-hint, lists when_to_use with the description, and names unapplied fields', async () => {
    write(
      join(roots.projectRoot, '.claude/skills/triage/SKILL.md'),
      '---\nname: triage\ndescription: Triage issues\nwhen_to_use: When a bug report arrives\nargument-hint: [issue]\neffort: high\nshell: bash\n---\nTriage $ARGUMENTS.\n',
    )
    write(
      join(roots.projectRoot, '.claude/commands/ship.md'),
      '---\ndescription: Ship it\nargument-hint: [branch, message]\n---\nShip $ARGUMENTS.\n',
    )
    const skills = await loadSkillDefinitions(roots)
    const triage = skills.definitions.find((definition) => definition.name === 'triage')!
    expect(triage).toMatchObject({
      argumentHint: 'issue',
      description: 'Triage issues - When a bug report arrives',
    })
    expect(triage.warnings.map((warning) => warning.message)).toEqual([
      expect.stringMatching(/"effort" is kept/),
      expect.stringMatching(/"shell" is kept/),
    ])
    const commands = await loadCommandDefinitions(roots)
    expect(commands.definitions.find((definition) => definition.name === 'ship')).toMatchObject({
      argumentHint: 'branch,message',
    })
  })

  it("names a skill after its folder when name is not a command name; a skill's own subfolders are not skills", async () => {
    const skill = join(base, 'plugin', 'skills', 'agent-development')
    write(
      join(skill, 'SKILL.md'),
      '---\nname: Agent Development\ndescription: Build agents\n---\nSee references/guide.md.\n',
    )
    write(join(skill, 'references', 'guide.md'), '# Guide\n')
    write(join(skill, 'scripts', 'check.sh'), 'echo ok\n')
    mkdirSync(join(skill, 'assets'), { recursive: true })
    // The plugin's skills path names the skill's own folder, as manifests may.
    const loaded = await loadSkillDefinitions({
      ...roots,
      plugins: [{ id: 'dev@acme', name: 'dev', commands: [], agents: [], skills: [skill] }],
    })
    expect(loaded.errors).toEqual([])
    const plugin = loaded.definitions.filter((definition) => definition.plugin === 'dev@acme')
    expect(plugin.map((definition) => definition.name)).toEqual(['dev:agent-development'])
    expect(plugin[0]!.warnings.map((warning) => warning.code)).toEqual(['name_invalid'])
  })
})

describe('deny rules (issue 34)', () => {
  it('a skill whose files a Read deny rule covers is not loaded, and an error says so', async () => {
    const secret = write(
      join(roots.projectRoot, '.claude/skills/secret/SKILL.md'),
      '---\nname: secret\ndescription: Holds a token\n---\nTOKEN=sk-live-SKILLSECRET\n',
    )
    write(
      join(roots.projectRoot, '.claude/skills/ok/SKILL.md'),
      '---\nname: ok\ndescription: Fine\n---\nbody\n',
    )
    const loaded = await loadSkillDefinitions({
      ...roots,
      isReadDenied: (path) => path.startsWith(join(roots.projectRoot, '.claude/skills/secret')),
    })
    expect(loaded.definitions.map((definition) => definition.name)).toEqual(['ok'])
    expect(JSON.stringify(loaded.definitions)).not.toContain('SKILLSECRET')
    expect(loaded.errors).toContainEqual(expect.objectContaining({ code: 'read_denied', path: secret }))
  })
})

describe('compareNames (issue 17: no ICU collator for simple names)', () => {
  it('orders exactly as localeCompare', () => {
    const names = [
      'general-purpose',
      'explore',
      'plan',
      'a',
      'a-b',
      'ab',
      'a0',
      'a-0',
      '0a',
      '9',
      '-',
      '',
      'code-reviewer',
      'code-reviewer-2',
      'code2',
      'plugin:agent',
      'Plan',
      'Zeta',
      'zeta',
      'é',
      'e_x',
      'e.x',
    ]
    for (const a of names)
      for (const b of names)
        expect(Math.sign(compareNames(a, b)), `${a} vs ${b}`).toBe(Math.sign(a.localeCompare(b)))
  })
})
