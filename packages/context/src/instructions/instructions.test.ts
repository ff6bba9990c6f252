import { describe, expect, it } from 'vitest'
import { AnnouncementTracker, nestedFolders } from './announce.js'
import { createGlobMatcher } from './glob.js'
import { expandImports, findImports, stripHtmlComments } from './imports.js'
import { renderInstructions } from './render.js'
import { claudeRuleFromFrontmatter, ruleFromFrontmatter, ruleMatches } from './rule.js'
import { memoryBullet, parseMemoryNote, truncateUtf8 } from './text.js'
import type { InstructionFile, Rule } from './types.js'

describe('Claude Code memory: imports expand in place, HTML comments are stripped', () => {
  it('replaces each @path where it stands, never inside code, leaving unknown mentions as written', () => {
    const content = [
      'Start. See @docs/a.md for setup.',
      'Inline `@docs/a.md` stays code.',
      '```',
      '@docs/a.md in a block stays too',
      '```',
      'Missing @docs/gone.md stays.',
    ].join('\n')
    const expanded = expandImports(content, new Map([['docs/a.md', 'A-TEXT']]))
    expect(expanded).toBe(
      [
        'Start. See A-TEXT for setup.',
        'Inline `@docs/a.md` stays code.',
        '```',
        '@docs/a.md in a block stays too',
        '```',
        'Missing @docs/gone.md stays.',
      ].join('\n'),
    )
    expect(expandImports('End with @docs/a.md.', new Map([['docs/a.md', 'A']]))).toBe('End with A.')
  })

  it('strips HTML comments, across lines, but not in code', () => {
    const content = [
      '# Rules',
      '<!-- maintainers: keep this short -->',
      'Use pnpm. <!-- not npm --> Always.',
      '<!-- a comment',
      'over lines -->',
      'Run tests.',
      '`<!-- literal -->`',
      '```html',
      '<!-- kept in code -->',
      '```',
    ].join('\n')
    expect(stripHtmlComments(content)).toBe(
      [
        '# Rules',
        'Use pnpm.  Always.',
        'Run tests.',
        '`<!-- literal -->`',
        '```html',
        '<!-- kept in code -->',
        '```',
      ].join('\n'),
    )
    expect(stripHtmlComments('no comments\n\nhere')).toBe('no comments\n\nhere')
  })
})

describe('findImports', () => {
  it('finds @path imports outside code, once each, in order', () => {
    const content = [
      'See @AGENTS.md and @./docs/style.md.',
      'Also @~/notes/me.md, @../shared/x.md and @/abs/y.md',
      'Mail me at dev@example.com, ping @here or @agent-explore.',
      '`@inline/code.md` is ignored',
      '```',
      '@fenced/ignored.md',
      '```',
      'again @AGENTS.md',
    ].join('\n')
    expect(findImports(content)).toEqual([
      'AGENTS.md',
      './docs/style.md',
      '~/notes/me.md',
      '../shared/x.md',
      '/abs/y.md',
    ])
  })
})

describe('truncateUtf8', () => {
  it('cuts at the byte limit without splitting a character', () => {
    expect(truncateUtf8('abc', 3)).toEqual({ text: 'abc', truncated: false })
    // 'é' is two bytes: a cut at 2 bytes must not leave half of it
    expect(truncateUtf8('aé', 2)).toEqual({ text: 'a', truncated: true })
    const big = 'x'.repeat(70 * 1024)
    const cut = truncateUtf8(big)
    expect(cut.truncated).toBe(true)
    expect(cut.text.length).toBe(64 * 1024)
  })
})

describe('memory notes', () => {
  it('parses # notes and rejects headings', () => {
    expect(parseMemoryNote('# always run pnpm test')).toBe('always run pnpm test')
    expect(parseMemoryNote('#use tabs')).toBe('use tabs')
    expect(parseMemoryNote('## Heading')).toBeNull()
    expect(parseMemoryNote('#')).toBeNull()
    expect(parseMemoryNote('no hash')).toBeNull()
    expect(memoryBullet('two\nlines ')).toBe('- two lines\n')
  })
})

describe('rules', () => {
  it('reads globs as a list or a comma-separated string, and rejects unusable rules', () => {
    expect(ruleFromFrontmatter('r.md', { globs: '*.ts, src/**/*.tsx' }, 'B')).toEqual({
      ok: true,
      rule: { path: 'r.md', globs: ['*.ts', 'src/**/*.tsx'], alwaysApply: false, body: 'B' },
    })
    expect(ruleFromFrontmatter('r.md', { alwaysApply: true, description: 'd' }, 'B')).toMatchObject({
      ok: true,
      rule: { alwaysApply: true, globs: [], description: 'd' },
    })
    const never = ruleFromFrontmatter('r.md', {}, 'B')
    expect(never.ok).toBe(false)
    if (!never.ok) expect(never.error).toContain('never used')
    expect(ruleFromFrontmatter('r.md', { globs: [1] }, 'B').ok).toBe(false)
    expect(ruleFromFrontmatter('r.md', { globs: '*.ts', alwaysApply: 'yes' }, 'B').ok).toBe(false)
    expect(ruleFromFrontmatter('r.md', 'text', 'B').ok).toBe(false)
  })

  it('keeps {ts,tsx} brace patterns whole when splitting at commas, then expands them as Claude Code does', () => {
    const result = claudeRuleFromFrontmatter('r.md', { paths: 'src/**/*.{ts,tsx}, docs/*.md' }, 'B')
    expect(result).toMatchObject({
      ok: true,
      rule: { globs: ['src/**/*.ts', 'src/**/*.tsx', 'docs/*.md'], alwaysApply: false },
    })
    if (!result.ok) throw new Error('valid rule')
    expect(ruleMatches(result.rule, 'src/ui/App.tsx')).toBe(true)
    expect(ruleMatches(result.rule, 'src/ui/App.css')).toBe(false)
    expect(claudeRuleFromFrontmatter('r.md', { paths: ['lib/{a,b}/*.{js,mjs}'] }, 'B')).toMatchObject({
      rule: { globs: ['lib/a/*.js', 'lib/a/*.mjs', 'lib/b/*.js', 'lib/b/*.mjs'] },
    })
  })

  it('matches gitignore-style: no slash means any depth, a slash anchors', () => {
    const rule: Rule = {
      path: 'r',
      globs: ['*.test.ts', '/docs/*.md', 'src/**/api/'],
      alwaysApply: false,
      body: '',
    }
    expect(ruleMatches(rule, 'a.test.ts')).toBe(true)
    expect(ruleMatches(rule, 'deep/er/a.test.ts')).toBe(true)
    expect(ruleMatches(rule, 'docs/a.md')).toBe(true)
    expect(ruleMatches(rule, 'sub/docs/a.md')).toBe(false)
    expect(ruleMatches(rule, 'src/x/y/api/route.ts')).toBe(true)
    expect(ruleMatches(rule, 'src/a.ts')).toBe(false)
    expect(ruleMatches(rule, '../outside/a.test.ts')).toBe(false)
    expect(createGlobMatcher(['*.ts', '!keep.ts']).matches('./keep.ts')).toBe(false)
  })
})

const file = (path: string, scope: InstructionFile['scope'] = 'nested'): InstructionFile => ({
  scope,
  path,
  content: `content of ${path}`,
  truncated: false,
})

describe('AnnouncementTracker', () => {
  it('lists the folders a touched path sits in, outer first', () => {
    expect(nestedFolders('a/b/c.ts')).toEqual(['a', 'a/b'])
    expect(nestedFolders('a/b', true)).toEqual(['a', 'a/b'])
    expect(nestedFolders('top.ts')).toEqual([])
  })

  it('announces nested files and glob rules once per agent, on first touch', () => {
    const nestedFiles = [file('pkg/sub/AGENTS.md'), file('pkg/AGENTS.md'), file('other/AGENTS.md')]
    const rules: Rule[] = [
      { path: '.z-engine/rules/tests.md', globs: ['*.test.ts'], alwaysApply: false, body: 'T' },
      { path: '.z-engine/rules/always.md', globs: ['*'], alwaysApply: true, body: 'A' },
    ]
    const tracker = new AnnouncementTracker()
    const first = tracker.take({ touched: ['pkg/sub/a.test.ts'], nestedFiles, rules })
    expect(first.map((a) => (a.kind === 'nested' ? a.file.path : `rule ${a.rule.path}`))).toEqual([
      'pkg/AGENTS.md',
      'pkg/sub/AGENTS.md',
      'rule .z-engine/rules/tests.md',
    ])
    expect(tracker.take({ touched: ['pkg/sub/b.test.ts', 'pkg/c.ts'], nestedFiles, rules })).toEqual([])
    expect(tracker.take({ touched: ['other/x.ts'], nestedFiles, rules }).map((a) => a.kind)).toEqual([
      'nested',
    ])
    // a new agent (or a restored one) starts from its own keys
    const restored = new AnnouncementTracker(tracker.keys())
    expect(restored.take({ touched: ['pkg/sub/a.test.ts'], nestedFiles, rules })).toEqual([])
    expect(
      new AnnouncementTracker().take({ touched: ['pkg/sub/a.test.ts'], nestedFiles, rules }),
    ).toHaveLength(3)
  })
})

describe('renderInstructions', () => {
  it('renders files in precedence order, then alwaysApply rules; nothing when empty or imported', () => {
    const text = renderInstructions(
      [
        file('~/.config/z-engine/AGENTS.md', 'user'),
        { ...file('AGENTS.md', 'project'), truncated: true },
        { ...file('docs/style.md', 'project'), importedFrom: 'AGENTS.md' },
        { ...file('AGENTS.local.md', 'local'), content: '  ' },
      ],
      [{ path: '.z-engine/rules/a.md', globs: [], alwaysApply: true, body: 'Always A' }],
    )
    expect(text.indexOf('~/.config/z-engine/AGENTS.md')).toBeLessThan(text.indexOf('path="AGENTS.md"'))
    expect(text).toContain('<file path="AGENTS.md" scope="project">')
    // Its text already stands in place inside AGENTS.md.
    expect(text).not.toContain('docs/style.md')
    expect(text).toContain('[cut at 64 KiB]')
    expect(text).not.toContain('AGENTS.local.md')
    expect(text).toContain('<rule path=".z-engine/rules/a.md" applies-to="always">\nAlways A\n</rule>')
    expect(renderInstructions([])).toBe('')
  })
})
