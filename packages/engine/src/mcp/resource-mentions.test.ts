import { describe, expect, it } from 'vitest'
import { attachResourceMentions, findResourceMentions } from './resource-mentions.js'

describe('@server:uri mentions', () => {
  it('finds server:scheme URIs after whitespace or at the start, once each, without trailing punctuation', () => {
    expect(
      findResourceMentions(
        '@docs:file://api/auth. See (@github:issue://123), @github:issue://123 again; mail a@b.c, @agent-x, @src/a.ts, @host:8080',
      ),
    ).toEqual([
      { server: 'docs', uri: 'file://api/auth' },
      { server: 'github', uri: 'issue://123' },
    ])
  })

  it('attaches text in an mcp-resource block; unknown servers, denied servers and failed reads are notices', async () => {
    const attached = await attachResourceMentions(
      'read @docs:file://a @nope:x://y @locked:x://z @docs:file://gone',
      {
        servers: () => ['docs', 'locked'],
        denied: (server) => server === 'locked',
        read: async (_server, uri) =>
          uri === 'file://a'
            ? { ok: true, output: { content: [{ type: 'text', text: 'A body' }] } }
            : { ok: false, error: { code: 'x', message: 'Resource file://gone not found' } },
      },
      new AbortController().signal,
    )
    expect(attached.blocks).toEqual([
      { type: 'text', text: '<mcp-resource server="docs" uri="file://a">\nA body\n</mcp-resource>' },
    ])
    expect(attached.notices).toEqual([
      '@nope:x://y was not attached: there is no MCP server named nope (servers: docs, locked).',
      '@locked:x://z was not attached: the permission rules deny MCP server locked.',
      '@docs:file://gone was not attached: Resource file://gone not found.',
    ])
  })
})
