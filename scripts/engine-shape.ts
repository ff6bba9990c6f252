// Prints the engine's shape for issue 41: folder imports that form circles, files over 500 lines,
// functions over 150 lines (non-test sources of packages/engine/src). Run: pnpm exec tsx scripts/engine-shape.ts
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { folderCycles, folderEdges } from '../test/boundary/folders.js'
import { functionSizes, lineCount } from '../test/boundary/source-sizes.js'

const root = join(import.meta.dirname, '..')
const src = join(root, process.argv[2] ?? 'packages/engine/src')

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return files(path)
    return /\.tsx?$/.test(entry) && !/\.test(-util)?\.tsx?$/.test(entry) && !entry.endsWith('.d.ts')
      ? [path]
      : []
  })
}

const edges = folderEdges(src)
const pairs = edges.filter((edge) => edges.some((back) => back.from === edge.to && back.to === edge.from))
const mutual = pairs.filter((edge) => edge.from < edge.to).map((edge) => `${edge.from}↔${edge.to}`)
const cycles = folderCycles(edges)
console.log(`folder edges ${edges.length}; mutual pairs ${mutual.length}: ${mutual.join(' ')}`)
console.log(
  `folder circles (strongly connected sets) ${cycles.length}: ${cycles.map((c) => c.join(',')).join(' | ')}`,
)
const big: string[] = []
const long: string[] = []
for (const file of files(src)) {
  const text = readFileSync(file, 'utf8')
  const lines = lineCount(text)
  if (lines > 500) big.push(`${lines} ${relative(root, file)}`)
  for (const size of functionSizes(file, text)) {
    if (size.lines > 150) long.push(`${size.lines} ${relative(root, file)}:${size.line} ${size.name}`)
  }
}
console.log(`files > 500 lines: ${big.length}\n  ${big.sort().join('\n  ')}`)
console.log(`functions > 150 lines: ${long.length}\n  ${long.sort().join('\n  ')}`)
