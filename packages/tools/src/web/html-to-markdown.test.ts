import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { htmlToMarkdown } from './html-to-markdown.js'

const fixture = readFileSync(new URL('./__fixtures__/docs-page.html', import.meta.url), 'utf8')

describe('htmlToMarkdown on a realistic documentation page', () => {
  const page = htmlToMarkdown(fixture, 'https://acme.example/docs/guides/caches/')

  it('takes the title from <title>, with entities decoded and whitespace collapsed', () => {
    expect(page.title).toBe('Configuring caches — Acme Build 4.2 documentation')
  })

  it('keeps only the main content: no scripts, styles, navigation, search form, footer or banners', () => {
    for (const noise of [
      'dataLayer',
      'schema.org',
      'width: 240px',
      'Getting started',
      'Blog',
      'Search docs',
      'Accept all',
      'Privacy',
      '© 2026',
      'Related:',
      'breadcrumbs',
      'Guides',
      'pixel.gif',
      '¶',
    ]) {
      expect(page.markdown, noise).not.toContain(noise)
    }
    expect(page.markdown.startsWith('# Configuring caches\n\nLast updated March 1, 2026')).toBe(true)
  })

  it('keeps inline formatting, spacing and entities', () => {
    expect(page.markdown).toContain(
      "Acme Build stores task outputs in a **local cache** and, optionally, a *remote cache* shared by your team. Both are keyed by a hash of the task's inputs & environment.",
    )
  })

  it('makes links and images absolute, keeps mailto, drops javascript: links', () => {
    expect(page.markdown).toContain(
      '[cache.dir](https://acme.example/docs/guides/reference/settings/#cache-dir)',
    )
    expect(page.markdown).toContain('[Remote execution](https://acme.example/docs/guides/remote-execution/)')
    expect(page.markdown).toContain(
      '![How a build consults the caches](https://acme.example/docs/guides/caches/img/cache-flow.png)',
    )
    expect(page.markdown).toContain('[mail us](mailto:team@acme.example)')
    expect(page.markdown).not.toContain('javascript:')
    expect(page.markdown).toContain('Edit this page')
  })

  it('turns code blocks into fenced blocks with their language and exact content', () => {
    expect(page.markdown).toContain(
      '```toml\n[cache]\ndir = "/mnt/fast/acme-cache"\nmax_size = "20 GiB"   # oldest entries are evicted first\n```',
    )
    expect(page.markdown).toContain(
      '```bash\nacme config set cache.remote https://cache.internal:9092\nacme build //app:server --remote-cache\n```',
    )
    expect(page.markdown).toContain('`~/.cache/acme`')
  })

  it('keeps headings, ordered and nested lists, tables and quotes', () => {
    expect(page.markdown).toContain('## Local cache\n')
    expect(page.markdown).toContain('## Remote cache\n')
    expect(page.markdown).toContain('### Options\n')
    expect(page.markdown).toContain('1. Start a cache server')
    expect(page.markdown).toContain('3. Check the hit rate with `acme stats --cache`.')
    expect(page.markdown).toContain('- macOS\n  - Apple silicon\n  - Intel — deprecated')
    expect(page.markdown).toMatch(/\| Setting +\| Default \| Meaning +\|\n\| -+ \| -+ \| -+ \|/)
    expect(page.markdown).toMatch(/\| cache\.timeout \| 30s +\| Give up on slow reads < 1 min \|/)
    expect(page.markdown).toContain('> Tip: run `acme clean --cache` after upgrading across a major version.')
  })
})

describe('htmlToMarkdown edge cases', () => {
  it('converts the body when the page marks no main content, and keeps its navigation', () => {
    const page = htmlToMarkdown(
      '<body><nav><a href="/a">A</a></nav><p>Hello</p></body>',
      'https://x.example/',
    )
    expect(page.markdown).toBe('[A](https://x.example/a)\n\nHello')
    expect(page.title).toBeUndefined()
  })

  it('drops top-level site chrome of a page without <main> when it has real content', () => {
    const body = 'A paragraph with enough words to be the content of the page. '.repeat(5)
    const page = htmlToMarkdown(
      `<body><header><nav><a href="/">Home</a></nav></header><h1>Post</h1><p>${body}</p><footer>Copyright</footer></body>`,
    )
    expect(page.markdown).toBe(`# Post\n\n${body.trim()}`)
  })

  it('decodes entities inside code without turning them into markup', () => {
    const page = htmlToMarkdown(
      '<main><pre><code>if (a &lt; b &amp;&amp; c) { return "&lt;p&gt;" }\n</code></pre></main>',
    )
    expect(page.markdown).toBe('```\nif (a < b && c) { return "<p>" }\n```')
  })

  it('never throws on broken markup', () => {
    expect(() => htmlToMarkdown('<div><p>unclosed <b>bold <i>both</div></span>')).not.toThrow()
    expect(htmlToMarkdown('<div><p>unclosed <b>bold</div>').markdown).toContain('unclosed **bold**')
  })
})
