import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { READ_ONLY_COMMANDS, trustGatedCategories } from '../src/index.js'

const docs = readFileSync(join(import.meta.dirname, '../../../docs/permissions.md'), 'utf8')

describe('docs/permissions.md stays true', () => {
  it.each(READ_ONLY_COMMANDS.map((entry) => [entry.names.join(', '), entry] as const))(
    'lists %s',
    (_, entry) => {
      for (const name of entry.names) expect(docs).toContain(`\`${name}\``)
      expect(docs).toContain(entry.summary.replace(/\|/g, '\\|'))
    },
  )
  it('lists every trust-gated category', () => {
    for (const category of trustGatedCategories()) expect(docs).toContain(`\`${category.key}\``)
  })
})
