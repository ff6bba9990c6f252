/**
 * Issue 38 through the CLI: Claude Code's git plugin sources (`github`, `url`, `git-subdir`, with
 * `ref` and `sha`) and a marketplace added as `owner/repo`, all from local bare repositories. GitHub
 * URLs reach them through a test-only `url.<base>.insteadOf` in a temporary GIT_CONFIG_GLOBAL, which
 * is also the only place `protocol.file.allow` is set: the engine itself refuses local transports
 * for URLs a manifest names. Never the network.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { chmod, mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess, type Sandbox, sandbox } from './helpers.js'

async function put(root: string, path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true })
  await writeFile(join(root, path), text)
}

const AUTHOR = {
  GIT_AUTHOR_NAME: 't',
  GIT_AUTHOR_EMAIL: 't@t',
  GIT_COMMITTER_NAME: 't',
  GIT_COMMITTER_EMAIL: 't@t',
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
      ...AUTHOR,
    },
  }).trim()
}

/** Commits everything in `work` and returns the commit id. */
function commit(work: string, message: string): string {
  git(work, ['add', '-A'])
  git(work, ['commit', '-qm', message])
  return git(work, ['rev-parse', 'HEAD'])
}

/** Publishes a work tree as the bare repository `<hosting>/<owner>/<name>.git`. */
function publish(work: string, bare: string): void {
  if (!existsSync(bare)) git(dirname(work), ['init', '-q', '--bare', bare])
  git(work, ['push', '-q', '--force', '--tags', bare, 'HEAD:refs/heads/main'])
  git(bare, ['symbolic-ref', 'HEAD', 'refs/heads/main'])
}

function plugin(name: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    '.claude-plugin/plugin.json': JSON.stringify({ name, version: '1.0.0' }),
    [`commands/${name}-run.md`]: `---\ndescription: Run ${name}\n---\nRun ${name}.\n`,
    ...extra,
  }
}

async function writeAll(root: string, files: Record<string, string>): Promise<void> {
  for (const [path, text] of Object.entries(files)) await put(root, path, text)
}

interface Fixture {
  box: Sandbox
  hosting: string
  /** The test's GIT_CONFIG_GLOBAL. */
  gitConfig: string
  shas: Record<string, string>
}

/**
 * `<hosting>/acme/market.git` (the marketplace), `acme/mono.git` (a monorepo with two plugins under
 * `tools/`, its second commit changing one), `acme/solo.git` (a plugin with a `v1` tag and a later
 * commit) and `acme/pinned.git` (a plugin whose second commit renames its command).
 */
async function fixture(): Promise<Fixture> {
  const box = await sandbox()
  const hosting = join(box.root, 'hosting')
  const work = join(box.root, 'work')
  await mkdir(join(hosting, 'acme'), { recursive: true })
  const shas: Record<string, string> = {}

  const mono = join(work, 'mono')
  await mkdir(mono, { recursive: true })
  git(mono, ['init', '-q'])
  await writeAll(join(mono, 'tools/alpha'), plugin('alpha'))
  await writeAll(join(mono, 'tools/gamma'), plugin('gamma'))
  await put(mono, 'README.md', 'not a plugin\n')
  await put(mono, 'big/blob.txt', 'the rest of the monorepo\n')
  shas.monoFirst = commit(mono, 'one')
  await put(mono, 'tools/gamma/commands/gamma-later.md', '---\ndescription: Later\n---\nLater.\n')
  shas.monoSecond = commit(mono, 'two')
  publish(mono, join(hosting, 'acme/mono.git'))

  const solo = join(work, 'solo')
  await mkdir(solo, { recursive: true })
  git(solo, ['init', '-q'])
  await writeAll(solo, plugin('solo'))
  // A submodule (the monorepo): never fetched for a plugin, even with the user's submodule.recurse.
  git(solo, [
    '-c',
    'protocol.file.allow=always',
    'submodule',
    'add',
    '-q',
    join(hosting, 'acme/mono.git'),
    'vendor/mono',
  ])
  commit(solo, 'v1')
  git(solo, ['tag', 'v1'])
  await put(solo, 'commands/solo-unreleased.md', '---\ndescription: Not yet\n---\nNot yet.\n')
  commit(solo, 'after v1')
  publish(solo, join(hosting, 'acme/solo.git'))

  const pinned = join(work, 'pinned')
  await mkdir(pinned, { recursive: true })
  git(pinned, ['init', '-q'])
  await writeAll(pinned, plugin('pinned'))
  shas.pinnedFirst = commit(pinned, 'one')
  await put(pinned, 'commands/pinned-run.md', '---\ndescription: Changed\n---\nChanged.\n')
  git(pinned, ['mv', 'commands/pinned-run.md', 'commands/pinned-new.md'])
  commit(pinned, 'two')
  publish(pinned, join(hosting, 'acme/pinned.git'))

  const market = join(work, 'market')
  await mkdir(market, { recursive: true })
  git(market, ['init', '-q'])
  await put(
    market,
    '.claude-plugin/marketplace.json',
    JSON.stringify({
      name: 'acme-remote',
      owner: { name: 'Acme' },
      plugins: [
        {
          name: 'alpha',
          source: { source: 'git-subdir', url: 'acme/mono', path: 'tools/alpha', ref: 'main' },
        },
        {
          name: 'gamma',
          source: {
            source: 'git-subdir',
            url: 'https://github.com/acme/mono.git',
            path: './tools/gamma',
            sha: shas.monoFirst,
          },
        },
        { name: 'solo', source: { source: 'url', url: 'https://github.com/acme/solo.git', ref: 'v1' } },
        { name: 'pinned', source: { source: 'github', repo: 'acme/pinned', sha: shas.pinnedFirst } },
        { name: 'missing', source: { source: 'git-subdir', url: 'acme/mono', path: 'tools/nope' } },
        { name: 'lost', source: { source: 'github', repo: 'acme/pinned', sha: 'f'.repeat(40) } },
        { name: 'local', source: { source: 'url', url: `file://${join(hosting, 'acme/solo.git')}` } },
      ],
    }),
  )
  commit(market, 'market')
  publish(market, join(hosting, 'acme/market.git'))

  // What a developer's machine would have: a hook template and submodules on by default. Neither
  // may act on a plugin clone.
  const templates = join(box.root, 'git-templates')
  await put(templates, 'hooks/post-checkout', `#!/bin/sh\necho ran >> "${join(box.root, 'hook-ran.txt')}"\n`)
  await chmod(join(templates, 'hooks/post-checkout'), 0o755)
  const gitConfig = join(box.root, 'gitconfig')
  await writeFile(
    gitConfig,
    [
      `[url "file://${hosting}/"]`,
      '\tinsteadOf = https://github.com/',
      '[protocol "file"]',
      '\tallow = always',
      '[init]',
      `\ttemplateDir = ${templates}`,
      '[submodule]',
      '\trecurse = true',
      '',
    ].join('\n'),
  )
  box.env.GIT_CONFIG_GLOBAL = gitConfig
  return { box, hosting, gitConfig, shas }
}

async function cli(box: Sandbox, args: string[]) {
  return runInProcess(args, { cwd: box.project, env: box.env })
}

async function commandNames(box: Sandbox): Promise<string[]> {
  const listed = await cli(box, ['commands', 'list', '--json'])
  const commands = (JSON.parse(listed.stdout) as { commands: Array<{ name: string }> }).commands
  return commands
    .filter((command) => command.name.includes(':'))
    .map((command) => command.name)
    .sort()
}

describe('git plugin sources (issue 38)', () => {
  it('adds a marketplace from owner/repo and installs github, url and git-subdir plugins at their ref or sha', async () => {
    const { box, shas } = await fixture()
    const added = await cli(box, ['plugin', 'marketplace', 'add', 'acme/market'])
    expect(added.stderr).toBe('')
    expect(added.stdout).toContain('Added marketplace acme-remote')

    for (const name of ['alpha', 'gamma', 'solo', 'pinned']) {
      const installed = await cli(box, ['plugin', 'install', `${name}@acme-remote`, '--yes'])
      expect(installed.stderr, name).toBe('')
      expect(installed.code, name).toBe(0)
    }
    // git-subdir: only the plugin's folder is installed, at the branch head or the pinned commit.
    const cache = join(box.root, 'data/z-engine/plugins/cache/acme-remote')
    expect((await readdir(join(cache, 'alpha'))).sort()).toEqual(['.claude-plugin', 'commands'])
    expect(existsSync(join(cache, 'alpha/README.md'))).toBe(false)
    expect(existsSync(join(cache, 'gamma/commands/gamma-later.md'))).toBe(false)
    // `ref` v1 is the tag, not the later commit; `sha` is that commit, not main.
    expect(await commandNames(box)).toEqual([
      'alpha:alpha-run',
      'gamma:gamma-run',
      'pinned:pinned-run',
      'solo:solo-run',
    ])
    expect(git(join(cache, 'pinned'), ['rev-parse', 'HEAD'])).toBe(shas.pinnedFirst)

    // Nothing of the user's git ran programs or fetched more: no hooks, no submodules.
    expect(await readdir(join(cache, 'solo/vendor/mono'))).toEqual([])
    expect(existsSync(join(box.root, 'hook-ran.txt'))).toBe(false)
  }, 120_000)

  it('names the source and the failed step, and refuses local transports a manifest names', async () => {
    const { box, gitConfig } = await fixture()
    expect((await cli(box, ['plugin', 'marketplace', 'add', 'acme/market'])).code).toBe(0)

    const missing = await cli(box, ['plugin', 'install', 'missing@acme-remote', '--yes'])
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toContain(
      'could not install plugin missing from its git-subdir source https://github.com/acme/mono.git path tools/nope: the repository has no folder tools/nope',
    )

    const lost = await cli(box, ['plugin', 'install', 'lost@acme-remote', '--yes'])
    expect(lost.stderr).toContain(`github source https://github.com/acme/pinned.git (sha ${'f'.repeat(40)})`)
    expect(lost.stderr).toContain(`commit ${'f'.repeat(40)} is not in the repository`)

    // Without the user's own `protocol.file.allow`, a file:// URL from a manifest is refused.
    await writeFile(gitConfig, (await readFile(gitConfig, 'utf8')).replace('allow = always', 'allow = user'))
    const local = await cli(box, ['plugin', 'install', 'local@acme-remote', '--yes'])
    expect(local.stderr).toContain('could not install plugin local from its url source file://')
    expect(local.stderr).toContain("transport 'file' not allowed")
    expect(local.stderr).toContain('a marketplace may name only https, ssh or git URLs')
    const plugins = JSON.parse((await cli(box, ['plugin', 'list', '--json'])).stdout) as {
      plugins: unknown[]
    }
    expect(plugins.plugins).toEqual([])
    expect(await readdir(join(box.root, 'data/z-engine/plugins/cache/acme-remote'))).toEqual([])
  }, 120_000)
})
