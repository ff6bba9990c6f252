import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fillGenerated } from '../scripts/render-docs.js'
import {
  COMMAND_TYPES,
  CommandSchemas,
  EVENT_TYPES,
  EventSchemas,
  LOG_RECORD_TYPES,
  LogRecordSchemas,
} from '../src/index.js'

const doc = readFileSync(new URL('../../../docs/protocol.md', import.meta.url), 'utf8')

/** The `### \`name\`` headings under each `## Section` of the doc. */
function headingsBySection(markdown: string): Map<string, string[]> {
  const sections = new Map<string, string[]>()
  let current = ''
  for (const line of markdown.split('\n')) {
    const section = /^## (.+)$/.exec(line)
    if (section?.[1] !== undefined) {
      current = section[1].trim()
      sections.set(current, [])
      continue
    }
    const entry = /^### `([^`]+)`$/.exec(line)
    if (entry?.[1] !== undefined) sections.get(current)?.push(entry[1])
  }
  return sections
}

describe('docs/protocol.md', () => {
  const sections = headingsBySection(doc)

  it.each([
    ['Commands', COMMAND_TYPES],
    ['Events', EVENT_TYPES],
    ['Log records', ['header']],
  ] as const)(
    'has exactly one heading per %s type, and none for types that do not exist',
    (section, types) => {
      expect(sections.get(section)?.slice().sort()).toEqual([...types].sort())
    },
  )

  it('lists every persisted event among the log records (their fields are documented under Events)', () => {
    const logSection = doc.slice(doc.indexOf('## Log records'))
    for (const type of LOG_RECORD_TYPES) expect(logSection).toContain(`\`${type}\``)
  })

  it('gives every command, event and log record a one-line meaning in its schema', () => {
    for (const schemas of [CommandSchemas, EventSchemas, LogRecordSchemas]) {
      for (const [type, schema] of Object.entries(schemas)) {
        expect((schema as { description?: string }).description, type).toMatch(/\S/)
      }
    }
  })

  it('is up to date with the schemas (run `pnpm --filter @z-engine/protocol docs`)', () => {
    expect(fillGenerated(doc)).toBe(doc)
  })

  it('documents the envelope, versioning and every field name of each command', () => {
    expect(doc).toContain('## Versioning')
    expect(doc).toContain('## Envelope')
    for (const schema of Object.values(CommandSchemas)) {
      for (const field of Object.keys(schema.properties)) {
        if (field !== 'type') expect(doc).toContain(`| \`${field}\` |`)
      }
    }
  })
})
