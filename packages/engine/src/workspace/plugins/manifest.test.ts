import { describe, expect, it } from 'vitest'
import { parseCodexPluginManifest, parseMarketplaceManifest, parsePluginManifest } from './manifest.js'

describe('marketplace.json', () => {
  it('reads relative, pluginRoot, GitHub and git sources, and skips broken entries with why', () => {
    const parsed = parseMarketplaceManifest(
      JSON.stringify({
        name: 'acme',
        owner: { name: 'Acme Inc' },
        metadata: { pluginRoot: './plugins', description: 'Tools' },
        plugins: [
          { name: 'a', source: './a', version: '1.0.0' },
          { name: 'b', source: 'b' },
          { name: 'c', source: { source: 'github', repo: 'acme/c', ref: 'v2' } },
          { name: 'd', source: { source: 'url', url: 'https://git.example.com/d.git' }, strict: false },
          {
            name: 'g',
            source: {
              source: 'git-subdir',
              url: 'acme/mono',
              path: './tools/g/',
              ref: 'main',
              sha: 'a'.repeat(40),
            },
          },
          { name: 'h', source: { source: 'git-subdir', url: 'git@example.com:acme/mono.git', path: 'h' } },
          { name: 'i', source: { source: 'git-subdir', url: 'acme/mono', path: '../up' } },
          { name: 'j', source: { source: 'github', repo: 'acme/j', sha: 'ABC' } },
          { name: 'k', source: { source: 'git-subdir', url: 'acme/mono' } },
          { name: 'e', source: '../outside' },
          { name: 'f', source: { source: 'npm', package: 'f' } },
          { name: 'Bad Name', source: './x' },
          'not an object',
        ],
      }),
    )
    if (!parsed.ok) throw new Error(parsed.error)
    expect(parsed.value).toMatchObject({ name: 'acme', owner: 'Acme Inc', description: 'Tools' })
    expect(parsed.value.plugins.map((plugin) => [plugin.name, plugin.source, plugin.strict])).toEqual([
      ['a', { kind: 'relative', path: './a' }, true],
      ['b', { kind: 'relative', path: './plugins/b' }, true],
      ['c', { kind: 'git', type: 'github', url: 'https://github.com/acme/c.git', ref: 'v2' }, true],
      ['d', { kind: 'git', type: 'url', url: 'https://git.example.com/d.git' }, false],
      [
        'g',
        {
          kind: 'git',
          type: 'git-subdir',
          url: 'https://github.com/acme/mono.git',
          subdir: 'tools/g',
          ref: 'main',
          sha: 'a'.repeat(40),
        },
        true,
      ],
      ['h', { kind: 'git', type: 'git-subdir', url: 'git@example.com:acme/mono.git', subdir: 'h' }, true],
    ])
    expect(parsed.value.problems).toEqual([
      'plugins[6] (i): "source.path" "../up" must be a relative folder inside the repository; it is skipped',
      'plugins[7] (j): "source.sha" "ABC" must be a full 40-character lowercase git commit SHA; it is skipped',
      `plugins[8] (k): "source.path" must name the plugin's folder inside the repository; it is skipped`,
      expect.stringContaining('plugins[9] (e): "source" "../outside" must stay inside the marketplace'),
      expect.stringContaining('plugins[10] (f): "source" {"source":"npm","package":"f"} is not supported'),
      'plugins[11].name must be a kebab-case plugin name; it is skipped',
      'plugins[12] must be an object; it is skipped',
    ])
  })

  it('refuses a file without a name or a plugins list', () => {
    expect(parseMarketplaceManifest('{"plugins": []}')).toMatchObject({ ok: false })
    expect(parseMarketplaceManifest('{"name": "x"}')).toMatchObject({
      ok: false,
      error: '"plugins" must be a list',
    })
    expect(parseMarketplaceManifest('{')).toMatchObject({ ok: false })
  })
})

describe('plugin.json', () => {
  it('reads custom paths and inline hooks and servers; paths leaving the plugin are ignored', () => {
    const problems: string[] = []
    const parsed = parsePluginManifest(
      JSON.stringify({
        name: 'tidy',
        version: '2.0.0',
        author: 'Ann',
        commands: ['./extra/x.md', '../escape.md'],
        agents: './custom-agents',
        hooks: { hooks: { Stop: [] } },
        mcpServers: './servers.json',
      }),
      problems,
    )
    if (!parsed.ok) throw new Error(parsed.error)
    expect(parsed.value).toMatchObject({
      name: 'tidy',
      version: '2.0.0',
      author: 'Ann',
      commands: ['./extra/x.md'],
      agents: ['./custom-agents'],
      hooks: [{ hooks: { Stop: [] } }],
      mcpServers: ['./servers.json'],
    })
    expect(problems).toEqual([expect.stringContaining('"../escape.md" must be a ./path inside the plugin')])
  })

  it("reads Codex's manifest for its skills", () => {
    const parsed = parseCodexPluginManifest('{"name": "codexy", "skills": "./skills/"}', [])
    expect(parsed).toMatchObject({ ok: true, value: { name: 'codexy', skills: ['./skills/'], commands: [] } })
  })
})
