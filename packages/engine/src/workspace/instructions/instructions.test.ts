import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { AnnouncementTracker, nestedFolders, renderInstructions } from '@z-engine/context'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadInstructions, loadNestedInstructions } from './instructions-load.js'
import { appendMemoryNote } from './memory.js'
import { loadRules, splitFrontmatter } from './rules-load.js'

let temp: string
let home: string
let repo: string
let project: string

async function put(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true })
  await writeFile(path, text)
}

beforeEach(async () => {
  temp = await mkdtemp(join(tmpdir(), 'z-instructions-'))
  home = join(temp, 'home')
  repo = join(home, 'code', 'repo')
  project = join(repo, 'packages', 'app')
  await mkdir(project, { recursive: true })
  await mkdir(join(repo, '.git'), { recursive: true })
})

afterEach(async () => {
  await rm(temp, { recursive: true, force: true })
})

const summary = (files: { scope: string; path: string; importedFrom?: string }[]) =>
  files.map((file) => `${file.scope} ${file.path}${file.importedFrom ? ` <- ${file.importedFrom}` : ''}`)

describe('loadInstructions', () => {
  it('discovers files in the order of spec 003, lowest precedence first', async () => {
    await put(join(home, '.claude', 'CLAUDE.md'), 'user claude')
    await put(join(home, '.config', 'z-engine', 'AGENTS.md'), 'user agents')
    await put(join(home, 'AGENTS.md'), 'home folder: never read')
    await put(join(home, 'code', 'AGENTS.md'), 'above the repository: never read')
    await put(join(repo, 'CLAUDE.md'), 'repo claude')
    await put(join(repo, 'AGENTS.md'), 'repo agents')
    await put(join(repo, 'packages', 'AGENTS.md'), 'packages agents')
    await put(join(project, 'CLAUDE.md'), 'project claude')
    await put(join(project, 'AGENTS.md'), 'project agents')
    await put(join(project, 'CLAUDE.local.md'), 'local claude')
    await put(join(project, 'AGENTS.local.md'), 'local agents')
    await put(join(project, 'sub', 'AGENTS.md'), 'nested: announced later')
    const loaded = await loadInstructions({ projectRoot: project, home })
    expect(summary(loaded.files)).toEqual([
      'user ~/.claude/CLAUDE.md',
      'user ~/.config/z-engine/AGENTS.md',
      'project ../../CLAUDE.md',
      'project ../../AGENTS.md',
      'project ../AGENTS.md',
      'project CLAUDE.md',
      'project AGENTS.md',
      'local CLAUDE.local.md',
      'local AGENTS.local.md',
    ])
    expect(loaded.repositoryRoot).toBe(repo)
    expect(loaded.warnings).toEqual([])

    const noCompat = await loadInstructions({ projectRoot: project, home, compatClaude: false })
    expect(summary(noCompat.files).some((line) => line.includes('CLAUDE'))).toBe(false)
    expect(noCompat.files).toHaveLength(5)
  })

  it('uses only the project folder outside a repository, and never the home folder', async () => {
    await rm(join(repo, '.git'), { recursive: true })
    await put(join(repo, 'AGENTS.md'), 'not a repository root any more')
    await put(join(project, 'AGENTS.md'), 'project')
    expect(summary((await loadInstructions({ projectRoot: project, home })).files)).toEqual([
      'project AGENTS.md',
    ])
    await put(join(home, 'AGENTS.md'), 'home')
    expect((await loadInstructions({ projectRoot: home, home })).files).toEqual([])
  })

  it('follows @imports at most 4 hops (Claude Code 2.1.332), loads no file twice (AGENTS.md imported by CLAUDE.md once), and skips imports leaving the project', async () => {
    await put(join(repo, 'CLAUDE.md'), 'Read @AGENTS.md first.')
    await put(join(repo, 'AGENTS.md'), 'See @docs/one.md and @docs/missing.md')
    await put(join(repo, 'docs', 'one.md'), 'then @two.md')
    await put(join(repo, 'docs', 'two.md'), 'then @three.md and back to @../AGENTS.md')
    await put(join(repo, 'docs', 'three.md'), 'then @four.md')
    await put(join(repo, 'docs', 'four.md'), 'then @five.md')
    await put(join(repo, 'docs', 'five.md'), 'then @six.md')
    await put(join(repo, 'docs', 'six.md'), 'too deep')
    await put(join(home, 'outside.md'), 'outside the project')
    await put(join(home, 'private.md'), 'not for projects')
    await put(join(project, 'AGENTS.md'), 'escape @~/private.md and @../../../../outside.md')
    await put(join(home, '.config', 'z-engine', 'AGENTS.md'), 'user may import @~/outside.md')
    const loaded = await loadInstructions({ projectRoot: project, home })
    expect(summary(loaded.files)).toEqual([
      'user ~/.config/z-engine/AGENTS.md',
      'user ~/outside.md <- ~/.config/z-engine/AGENTS.md',
      'project ../../CLAUDE.md',
      'project ../../AGENTS.md <- ../../CLAUDE.md',
      'project ../../docs/one.md <- ../../AGENTS.md',
      'project ../../docs/two.md <- ../../docs/one.md',
      'project ../../docs/three.md <- ../../docs/two.md',
      'project AGENTS.md',
    ])
    expect(loaded.warnings.join('\n')).toContain('docs/missing.md does not exist')
    expect(loaded.warnings.join('\n')).toContain('at most 4 files deep')
    expect(loaded.warnings.join('\n')).toContain(
      '~/private.md: skipped because it resolves outside the project',
    )
  })

  it('expands @imports in place, as Claude Code does, and renders each file once', async () => {
    await put(
      join(repo, 'AGENTS.md'),
      '# Repo\nBefore.\nStyle: @docs/style.md\nAfter.\n`@docs/style.md` is code.\n',
    )
    await put(join(repo, 'docs', 'style.md'), 'Use tabs. See @nested.md\n')
    await put(join(repo, 'docs', 'nested.md'), 'NESTED-RULE')
    const loaded = await loadInstructions({ projectRoot: project, home })
    expect(summary(loaded.files)).toEqual([
      'project ../../AGENTS.md',
      'project ../../docs/style.md <- ../../AGENTS.md',
      'project ../../docs/nested.md <- ../../docs/style.md',
    ])
    expect(loaded.files[0]?.content).toBe(
      '# Repo\nBefore.\nStyle: Use tabs. See NESTED-RULE\nAfter.\n`@docs/style.md` is code.\n',
    )
    const rendered = renderInstructions(loaded.files)
    expect(rendered.match(/NESTED-RULE/g)).toHaveLength(1)
    expect(rendered.indexOf('Before.')).toBeLessThan(rendered.indexOf('Use tabs.'))
    expect(rendered.indexOf('Use tabs.')).toBeLessThan(rendered.indexOf('After.'))
  })

  it('strips HTML comments from memory files, as Claude Code does', async () => {
    await put(
      join(project, 'AGENTS.md'),
      '<!-- for maintainers only -->\nKeep it short. <!-- secret note -->\n',
    )
    const [file] = (await loadInstructions({ projectRoot: project, home })).files
    expect(file?.content).toBe('Keep it short. \n')
  })

  it("reads Claude Code's .claude/CLAUDE.md and CLAUDE.local.md in every folder, and the XDG config folder", async () => {
    await put(join(repo, '.claude', 'CLAUDE.md'), 'repo dot-claude')
    await put(join(repo, 'CLAUDE.local.md'), 'repo local')
    await put(join(project, '.claude', 'CLAUDE.md'), 'project dot-claude')
    await put(join(project, 'CLAUDE.local.md'), 'project local')
    const xdg = join(temp, 'xdg', 'z-engine')
    await put(join(xdg, 'AGENTS.md'), 'xdg user agents')
    await put(join(home, '.config', 'z-engine', 'AGENTS.md'), 'not the configured folder')
    const loaded = await loadInstructions({ projectRoot: project, home, configDir: xdg })
    // Folder by folder, each folder's CLAUDE.local.md right after its own files (Claude Code's order).
    expect(summary(loaded.files)).toEqual([
      `user ${xdg}/AGENTS.md`,
      'project ../../.claude/CLAUDE.md',
      'local ../../CLAUDE.local.md',
      'project .claude/CLAUDE.md',
      'local CLAUDE.local.md',
    ])
    const noCompat = await loadInstructions({
      projectRoot: project,
      home,
      configDir: xdg,
      compatClaude: false,
    })
    expect(summary(noCompat.files)).toEqual([`user ${xdg}/AGENTS.md`])
  })

  it('skips project files that link outside the project and cuts files at 64 KiB', async () => {
    await put(join(home, 'elsewhere.md'), 'secret elsewhere')
    await symlink(join(home, 'elsewhere.md'), join(project, 'AGENTS.md'))
    await put(join(project, 'AGENTS.local.md'), `${'é'.repeat(40 * 1024)}`)
    const loaded = await loadInstructions({ projectRoot: project, home })
    expect(summary(loaded.files)).toEqual(['local AGENTS.local.md'])
    expect(loaded.warnings.join('\n')).toContain('resolves outside the project')
    const local = loaded.files[0]!
    expect(local.truncated).toBe(true)
    expect(new TextEncoder().encode(local.content).length).toBe(64 * 1024)
  })
})

describe('nested instructions', () => {
  it('loads nested files for touched folders, announced once per agent', async () => {
    await put(join(project, 'src', 'AGENTS.md'), 'src rules')
    await put(join(project, 'src', 'deep', 'CLAUDE.md'), 'deep claude')
    const touched = ['src/deep/file.ts']
    const nested = await loadNestedInstructions({
      root: project,
      home,
      folders: touched.flatMap((path) => nestedFolders(path)),
    })
    expect(summary(nested.files)).toEqual(['nested src/AGENTS.md', 'nested src/deep/CLAUDE.md'])
    const tracker = new AnnouncementTracker()
    expect(tracker.take({ touched, nestedFiles: nested.files, rules: [] })).toHaveLength(2)
    expect(tracker.take({ touched, nestedFiles: nested.files, rules: [] })).toHaveLength(0)
  })
})

describe('loadRules', () => {
  it('loads user then project rules from rules/**/*.md, reporting unusable ones', async () => {
    await put(
      join(home, '.config', 'z-engine', 'rules', 'style.md'),
      '---\nalwaysApply: true\n---\nUse tabs.\n',
    )
    await put(
      join(project, '.z-engine', 'rules', 'tests', 'vitest.md'),
      '---\nglobs: ["*.test.ts"]\ndescription: tests\n---\nUse vitest.\n',
    )
    await put(join(project, '.z-engine', 'rules', 'bad.md'), '---\nglobs: [unclosed\n---\nbody')
    await put(join(project, '.z-engine', 'rules', 'unused.md'), 'no frontmatter at all')
    await put(
      join(project, '.claude', 'rules', 'ignored.md'),
      '---\nalwaysApply: true\n---\nnot with compat off',
    )
    const loaded = await loadRules({ projectRoot: project, home, compatClaude: false })
    expect(loaded.rules).toEqual([
      { path: '~/.config/z-engine/rules/style.md', globs: [], alwaysApply: true, body: 'Use tabs.\n' },
      {
        path: '.z-engine/rules/tests/vitest.md',
        globs: ['*.test.ts'],
        alwaysApply: false,
        description: 'tests',
        body: 'Use vitest.\n',
      },
    ])
    expect(loaded.errors).toHaveLength(2)
    expect(loaded.errors[0]).toContain('.z-engine/rules/bad.md: the frontmatter is not valid YAML')
    expect(loaded.errors[1]).toContain('never used')
    expect(splitFrontmatter('---\na: 1\n---')).toEqual({ ok: true, data: { a: 1 }, body: '' })
  })

  it("reads Claude Code's .claude/rules: paths scope a rule, none means always", async () => {
    await put(join(home, '.claude', 'rules', 'tone.md'), 'Be brief.\n')
    await put(
      join(project, '.claude', 'rules', 'api.md'),
      '---\npaths:\n  - "src/api/**/*.ts"\n---\nValidate input.\n',
    )
    await put(
      join(project, '.claude', 'rules', 'docs.md'),
      '---\npaths: "docs/**, *.md"\n---\nWrite plainly.\n',
    )
    const xdg = join(temp, 'xdg', 'z-engine')
    await put(join(xdg, 'rules', 'mine.md'), '---\nalwaysApply: true\n---\nMine.\n')
    const loaded = await loadRules({ projectRoot: project, home, configDir: xdg })
    expect(loaded.errors).toEqual([])
    expect(loaded.rules.map((rule) => [rule.path, rule.alwaysApply, rule.globs])).toEqual([
      ['~/.claude/rules/tone.md', true, []],
      [`${xdg}/rules/mine.md`, true, []],
      ['.claude/rules/api.md', false, ['src/api/**/*.ts']],
      ['.claude/rules/docs.md', false, ['docs/**', '*.md']],
    ])
    const tracker = new AnnouncementTracker()
    const announced = tracker.take({ touched: ['src/api/users.ts'], nestedFiles: [], rules: loaded.rules })
    expect(announced.map((item) => (item.kind === 'rule' ? item.rule.path : ''))).toEqual([
      '.claude/rules/api.md',
    ])
  })
})

describe('appendMemoryNote', () => {
  it('appends a bullet to the right file and the reload shows it', async () => {
    await put(join(project, 'AGENTS.md'), '# Project\nno trailing newline')
    const project1 = await appendMemoryNote({
      target: 'project',
      projectRoot: project,
      home,
      note: 'run pnpm test',
    })
    expect(project1).toEqual({ ok: true, path: join(project, 'AGENTS.md') })
    expect(await readFile(join(project, 'AGENTS.md'), 'utf8')).toBe(
      '# Project\nno trailing newline\n- run pnpm test\n',
    )
    await appendMemoryNote({ target: 'user', projectRoot: project, home, note: 'be brief' })
    expect(await readFile(join(home, '.config', 'z-engine', 'AGENTS.md'), 'utf8')).toBe('- be brief\n')
    await appendMemoryNote({ target: 'local', projectRoot: project, home, note: 'my port is 3001' })
    const reloaded = await loadInstructions({ projectRoot: project, home })
    expect(reloaded.files.map((file) => file.content).join('\n')).toContain('- my port is 3001')
    expect((await appendMemoryNote({ target: 'local', projectRoot: project, home, note: ' ' })).ok).toBe(
      false,
    )
  })
})
