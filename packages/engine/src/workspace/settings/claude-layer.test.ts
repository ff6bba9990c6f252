import { describe, expect, it } from 'vitest'
import { parseClaudeLayer } from './claude-layer.js'

describe("Claude Code's extraKnownMarketplaces", () => {
  it('declares github, git and directory marketplaces, and names the source fields it does not apply', () => {
    const layer = parseClaudeLayer(
      'claudeProject',
      '/p/.claude/settings.json',
      JSON.stringify({
        extraKnownMarketplaces: {
          pinned: {
            source: { source: 'github', repo: 'acme/tools', ref: 'v2', path: 'meta/marketplace.json' },
          },
          mono: {
            source: {
              source: 'git',
              url: 'https://git.example.com/mono.git',
              sparsePaths: ['.claude-plugin'],
            },
          },
          local: { source: { source: 'directory', path: './market' } },
        },
      }),
    )
    expect(layer.data.plugins?.marketplaces).toEqual({
      pinned: { source: 'acme/tools' },
      mono: { source: 'https://git.example.com/mono.git' },
      local: { source: './market' },
    })
    expect(layer.notices.map((notice) => notice.message)).toEqual([
      expect.stringContaining('extraKnownMarketplaces.pinned.source.ref is not applied'),
      expect.stringContaining('extraKnownMarketplaces.pinned.source.path is not applied'),
      expect.stringContaining('extraKnownMarketplaces.mono.source.sparsePaths is not applied'),
    ])
    expect(layer.notices.every((notice) => notice.severity === 'warning')).toBe(true)
  })
})
