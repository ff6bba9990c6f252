// Rewrites the read-only command table in docs/permissions.md from READ_ONLY_COMMANDS.
// Run: node --conditions=@z-engine/source --import tsx scripts/render-read-only-table.ts
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { READ_ONLY_COMMANDS } from '../src/index.js'

const START = '<!-- read-only-table:start -->'
const END = '<!-- read-only-table:end -->'
const path = join(import.meta.dirname, '../../../docs/permissions.md')
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, '\\n')
const code = (items: readonly string[]): string => items.map((item) => `\`${cell(item)}\``).join('<br>')
const rows = READ_ONLY_COMMANDS.map(
  (entry) =>
    `| ${code(entry.names)} | ${cell(entry.summary)} | ${
      entry.allowed
        ? entry.allowed
            .split(' ')
            .map((option) => `\`${cell(option)}\``)
            .join(' ')
        : '(own check)'
    } | ${code(entry.match)} | ${code(entry.notMatch)} |`,
)
const table = [
  '| commands | read-only when | options allowed | proven | refused |',
  '| --- | --- | --- | --- | --- |',
  ...rows,
].join('\n')
const docs = readFileSync(path, 'utf8')
const start = docs.indexOf(START)
const end = docs.indexOf(END)
if (start < 0 || end < start) throw new Error(`docs/permissions.md lacks the ${START} … ${END} markers`)
writeFileSync(path, `${docs.slice(0, start + START.length)}\n${table}\n${docs.slice(end)}`)
console.log(`wrote ${rows.length} rows`)
