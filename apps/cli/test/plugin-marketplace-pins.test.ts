/**
 * Issue 38 through the CLI: a git marketplace's own `ref` (a branch, a tag, or a commit id that
 * holds it), `path` (marketplace.json elsewhere in the repository) and `sparsePaths` (only some
 * folders checked out), as Claude Code reads them in `extraKnownMarketplaces` and as `plugin
 * marketplace add --ref/--path/--sparse`. All from a local bare repository that
 * `https://github.com/` reaches through a test-only `url.<base>.insteadOf` in a temporary
 * GIT_CONFIG_GLOBAL. Never the network.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess, type Sandbox, sandbox } from './helpers.js'

async function put(root: string, path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true })
  await writeFile(join(root, path), text)
}

/** A git command for building fixtures, with no user or system configuration. */
function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  }).trim()
}

function commit(work: string, message: string): string {
  git(work, ['add', '-A'])
  git(work, ['commit', '-qm', message])
  return git(work, ['rev-parse', 'HEAD'])
}

interface Fixture {
  box: Sandbox
  /** The work tree behind `https://github.com/acme/mega.git`. */
  work: string
  bare: string
  /** The first commit (tagged v1) and the second (main's head). */
  first: string
  second: string
}

/**
 * `acme/mega`: a monorepo whose marketplace.json is `meta/marketplace.json` (none in
 * `.claude-plugin/`), listing `./plugins/tool`; a folder the marketplace does not need (`big/`). Its
 * first commit is tagged v1; the second adds a command to the plugin.
 */
async function fixture(): Promise<Fixture> {
  const box = await sandbox()
  const hosting = join(box.root, 'hosting')
  const work = join(box.root, 'work', 'mega')
  const bare = join(hosting, 'acme', 'mega.git')
  await mkdir(work, { recursive: true })
  await mkdir(dirname(bare), { recursive: true })
  git(work, ['init', '-q'])
  await put(
    work,
    'meta/marketplace.json',
    JSON.stringify({
      name: 'mega',
      owner: { name: 'Acme' },
      plugins: [{ name: 'tool', source: './plugins/tool', description: 'A tool' }],
    }),
  )
  await put(
    work,
    'plugins/tool/.claude-plugin/plugin.json',
    JSON.stringify({ name: 'tool', version: '1.0.0' }),
  )
  await put(work, 'plugins/tool/commands/tool-run.md', '---\ndescription: Run\n---\nRun the tool.\n')
  await put(work, 'big/blob.txt', 'the rest of the monorepo\n')
  const first = commit(work, 'one')
  git(work, ['tag', 'v1'])
  await put(work, 'plugins/tool/commands/tool-next.md', '---\ndescription: Next\n---\nThe next command.\n')
  const second = commit(work, 'two')
  git(dirname(work), ['init', '-q', '--bare', bare])
  publish(work, bare)
  const gitConfig = join(box.root, 'gitconfig')
  await writeFile(
    gitConfig,
    [
      `[url "file://${hosting}/"]`,
      '\tinsteadOf = https://github.com/',
      '[protocol "file"]',
      '\tallow = always',
      '',
    ].join('\n'),
  )
  box.env.GIT_CONFIG_GLOBAL = gitConfig
  return { box, work, bare, first, second }
}

function publish(work: string, bare: string): void {
  git(work, ['push', '-q', '--force', '--tags', bare, 'HEAD:refs/heads/main'])
  git(bare, ['symbolic-ref', 'HEAD', 'refs/heads/main'])
}

async function cli(box: Sandbox, args: string[]) {
  return runInProcess(args, { cwd: box.project, env: box.env })
}

async function toolCommands(box: Sandbox): Promise<string[]> {
  const listed = await cli(box, ['commands', 'list', '--json'])
  const commands = (JSON.parse(listed.stdout) as { commands: Array<{ name: string }> }).commands
  return commands
    .map((command) => command.name)
    .filter((name) => name.startsWith('tool:'))
    .sort()
}

const clone = (box: Sandbox) => join(box.root, 'data/z-engine/plugins/marketplaces/mega')

describe('marketplace ref, path and sparsePaths (issue 38)', () => {
  it("extraKnownMarketplaces' ref, path and sparsePaths apply when the first install adds the marketplace", async () => {
    const { box, first } = await fixture()
    await put(
      box.root,
      '.claude/settings.json',
      JSON.stringify({
        extraKnownMarketplaces: {
          mega: {
            source: {
              source: 'github',
              repo: 'acme/mega',
              ref: 'v1',
              path: 'meta/marketplace.json',
              sparsePaths: ['plugins'],
            },
          },
        },
      }),
    )
    const declared = await cli(box, ['plugin', 'marketplace', 'list', '--json'])
    expect(declared.stderr).toBe('')
    expect(JSON.parse(declared.stdout).marketplaces).toEqual([
      {
        name: 'mega',
        source: 'acme/mega',
        status: 'declared',
        ref: 'v1',
        path: 'meta/marketplace.json',
        sparsePaths: ['plugins'],
      },
    ])

    const installed = await cli(box, ['plugin', 'install', 'tool@mega', '--yes'])
    expect(installed.stderr).toBe('')
    expect(installed.code).toBe(0)
    // The tag, not main's head; only the named folders (and meta/, which holds marketplace.json).
    expect(await toolCommands(box)).toEqual(['tool:tool-run'])
    expect(git(clone(box), ['rev-parse', 'HEAD'])).toBe(first)
    expect((await readdir(clone(box))).filter((name) => name !== '.git').sort()).toEqual(['meta', 'plugins'])
    const listed = JSON.parse((await cli(box, ['plugin', 'marketplace', 'list', '--json'])).stdout)
    expect(listed.marketplaces).toEqual([
      expect.objectContaining({
        name: 'mega',
        status: 'added',
        kind: 'git',
        root: clone(box),
        ref: 'v1',
        path: 'meta/marketplace.json',
        sparsePaths: ['plugins'],
        plugins: [{ name: 'tool', description: 'A tool' }],
      }),
    ])
  }, 120_000)

  it('--ref with a commit id holds the marketplace there on update; a branch ref moves with it', async () => {
    const { box, work, bare, first } = await fixture()
    const pinned = await cli(box, [
      'plugin',
      'marketplace',
      'add',
      'acme/mega',
      '--ref',
      first,
      '--path',
      'meta/marketplace.json',
    ])
    expect(pinned.stderr).toBe('')
    expect(pinned.stdout).toContain('Added marketplace mega')
    expect(git(clone(box), ['rev-parse', 'HEAD'])).toBe(first)
    expect(existsSync(join(clone(box), 'big/blob.txt'))).toBe(true)

    // A later commit: update leaves a commit pin where it is.
    await put(work, 'plugins/tool/commands/tool-third.md', '---\ndescription: Third\n---\nThird.\n')
    const third = commit(work, 'three')
    publish(work, bare)
    expect((await cli(box, ['plugin', 'marketplace', 'update', 'mega'])).code).toBe(0)
    expect(git(clone(box), ['rev-parse', 'HEAD'])).toBe(first)

    // Held at the branch instead, it moves with the branch.
    expect((await cli(box, ['plugin', 'marketplace', 'remove', 'mega'])).code).toBe(0)
    const branch = await cli(box, [
      'plugin',
      'marketplace',
      'add',
      'acme/mega',
      '--ref',
      'main',
      '--path',
      'meta/marketplace.json',
      '--sparse',
      'plugins',
    ])
    expect(branch.stderr).toBe('')
    await put(work, 'plugins/tool/commands/tool-fourth.md', '---\ndescription: Fourth\n---\nFourth.\n')
    const fourth = commit(work, 'four')
    expect(fourth).not.toBe(third)
    publish(work, bare)
    const updated = await cli(box, ['plugin', 'marketplace', 'update', 'mega'])
    expect(updated.stderr).toBe('')
    expect(git(clone(box), ['rev-parse', 'HEAD'])).toBe(fourth)
    expect(existsSync(join(clone(box), 'big'))).toBe(false)
    expect((await cli(box, ['plugin', 'install', 'tool@mega', '--yes'])).code).toBe(0)
    expect(await toolCommands(box)).toEqual([
      'tool:tool-fourth',
      'tool:tool-next',
      'tool:tool-run',
      'tool:tool-third',
    ])
  }, 120_000)

  it('names what is wrong: no marketplace.json where looked, a path leaving the repository, a pin on a folder', async () => {
    const { box, work } = await fixture()
    const plain = await cli(box, ['plugin', 'marketplace', 'add', 'acme/mega'])
    expect(plain.code).not.toBe(0)
    expect(plain.stderr).toContain('has no .claude-plugin/marketplace.json')

    const wrong = await cli(box, ['plugin', 'marketplace', 'add', 'acme/mega', '--path', 'meta/nope.json'])
    expect(wrong.stderr).toContain("meta/nope.json does not exist (the marketplace's path names it)")

    const outside = await cli(box, ['plugin', 'marketplace', 'add', 'acme/mega', '--path', '../x.json'])
    expect(outside.stderr).toContain(
      'the marketplace path ../x.json must be relative to the repository and stay inside it',
    )

    const badRef = await cli(box, [
      'plugin',
      'marketplace',
      'add',
      'acme/mega',
      '--ref',
      'v9',
      '--path',
      'meta/marketplace.json',
    ])
    expect(badRef.stderr).toContain(
      'could not clone https://github.com/acme/mega.git (ref v9, path meta/marketplace.json)',
    )

    const folder = await cli(box, ['plugin', 'marketplace', 'add', work, '--ref', 'v1'])
    expect(folder.stderr).toContain(
      `ref applies only to a git marketplace; ${work} is a folder, read in place`,
    )
    const listed = JSON.parse((await cli(box, ['plugin', 'marketplace', 'list', '--json'])).stdout)
    expect(listed.marketplaces).toEqual([])
    expect(await readdir(join(box.root, 'data/z-engine/plugins/marketplaces'))).toEqual([])
  }, 120_000)
})
