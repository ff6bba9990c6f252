import { describe, expect, it } from 'vitest'
import { parseClaudeLayer } from './claude-layer.js'

describe("Claude Code's extraKnownMarketplaces", () => {
  it('declares github, git and directory marketplaces with their ref, path and sparsePaths', () => {
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
      pinned: { source: 'acme/tools', ref: 'v2', path: 'meta/marketplace.json' },
      mono: { source: 'https://git.example.com/mono.git', sparse_paths: ['.claude-plugin'] },
      local: { source: './market' },
    })
    expect(layer.notices).toEqual([])
  })
  it('names a ref, path or sparsePaths of the wrong type and ignores it', () => {
    const layer = parseClaudeLayer(
      'claudeProject',
      '/p/.claude/settings.json',
      JSON.stringify({
        extraKnownMarketplaces: {
          odd: {
            source: { source: 'git', url: 'https://git.example.com/m.git', ref: 7, sparsePaths: 'plugins' },
          },
        },
      }),
    )
    expect(layer.data.plugins?.marketplaces).toEqual({ odd: { source: 'https://git.example.com/m.git' } })
    expect(layer.notices.map((notice) => notice.message)).toEqual([
      expect.stringContaining('extraKnownMarketplaces.odd.source.ref must be a non-empty string'),
      expect.stringContaining('extraKnownMarketplaces.odd.source.sparsePaths must be a list of folders'),
    ])
  })
})
