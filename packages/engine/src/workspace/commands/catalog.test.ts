import { describe, expect, it } from 'vitest'
import { closeMatches } from '../../util/close-matches.js'
import { builtinCommandDefinitions } from '../definitions/load.js'
import type { CommandDefinition, DefinitionLayer } from '../definitions/types.js'
import { buildCommandCatalog, resolveCommand } from './catalog.js'

const custom = (name: string, layer: DefinitionLayer = 'project'): CommandDefinition => ({
  name,
  description: `custom ${name}`,
  source: { layer, path: `/p/.z-engine/commands/${name}.md` },
  frontmatter: {},
  warnings: [],
  body: `do ${name}`,
  allowedTools: [],
})

describe('command catalog', () => {
  const catalog = buildCommandCatalog({
    custom: [custom('review'), custom('compact'), custom('deploy')],
    promptBuiltins: builtinCommandDefinitions(),
    mcpPrompts: [{ server: 'docs', prompt: 'search', description: 'Search docs', arguments: [] }],
  })

  it('lists engine built-ins first and marks them', () => {
    const engine = catalog.entries.filter((entry) => entry.kind === 'engine').map((entry) => entry.name)
    expect(engine).toEqual([
      'compact',
      'context',
      'cost',
      'status',
      'remember',
      'model',
      'mode',
      'effort',
      'mcp',
      'plugin',
      'todos',
      'decisions',
      'full-history',
      'doctor',
      'add-dir',
      'jobs',
      'worktrees',
      'reload',
    ])
  })

  it('never lets a custom command shadow an engine built-in, and says so', () => {
    const resolved = resolveCommand(catalog, '/compact')
    expect(resolved.ok && resolved.entry.kind).toBe('engine')
    expect(catalog.warnings).toHaveLength(1)
    expect(catalog.warnings[0]).toMatch(
      /custom command \/compact .* is ignored: \/compact is an engine built-in/,
    )
  })

  it('lets a custom command shadow a prompt built-in', () => {
    const review = resolveCommand(catalog, 'review')
    expect(review.ok && review.entry.kind).toBe('custom')
    const init = resolveCommand(catalog, 'init')
    expect(init.ok && init.entry.kind).toBe('prompt')
  })

  it('resolves MCP prompts as mcp__<server>__<prompt>', () => {
    const resolved = resolveCommand(catalog, 'mcp__docs__search')
    expect(resolved.ok && resolved.entry.kind).toBe('mcp')
  })

  it('includes the prompt built-ins by default', () => {
    const defaults = buildCommandCatalog({ custom: [] })
    expect(defaults.entries.filter((entry) => entry.kind === 'prompt').map((entry) => entry.name)).toEqual([
      'init',
      'review',
      'commit',
    ])
  })

  it('answers an unknown name with a notice and close matches', () => {
    const resolved = resolveCommand(catalog, '/deplyo')
    expect(resolved).toEqual({
      ok: false,
      notice: 'Unknown command /deplyo. Did you mean /deploy?',
      suggestions: ['deploy'],
    })
    const far = resolveCommand(catalog, 'zzzzzzzz')
    expect(far).toEqual({ ok: false, notice: 'Unknown command /zzzzzzzz.', suggestions: [] })
  })

  it('ranks prefixes and small typos first', () => {
    expect(closeMatches('mod', ['model', 'mode', 'mcp', 'todos'])).toEqual(['mode', 'model'])
    expect(closeMatches('stauts', ['status', 'cost'])).toEqual(['status'])
  })
})
