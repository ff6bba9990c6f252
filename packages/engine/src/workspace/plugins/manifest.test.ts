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
      ['c', { kind: 'git', url: 'https://github.com/acme/c.git', ref: 'v2' }, true],
      ['d', { kind: 'git', url: 'https://git.example.com/d.git' }, false],
    ])
    expect(parsed.value.problems).toHaveLength(4)
    expect(parsed.value.problems[0]).toContain('must stay inside the marketplace')
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
