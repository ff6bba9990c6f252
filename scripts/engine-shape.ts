// Prints the engine's shape (issue 41): folder imports that form circles, and files and functions over
// the size limits (test/boundary/size.ts). Run: pnpm exec tsx scripts/engine-shape.ts [src folder]
import { join } from 'node:path'
import { folderCycles, folderEdges } from '../test/boundary/folders.js'
import { findSizeOffenders, offenderKey } from '../test/boundary/size.js'

const root = join(import.meta.dirname, '..')
const srcDir = process.argv[2] ?? 'packages/engine/src'
const edges = folderEdges(join(root, srcDir))
const mutual = edges
  .filter(
    (edge) => edge.from < edge.to && edges.some((back) => back.from === edge.to && back.to === edge.from),
  )
  .map((edge) => `${edge.from}↔${edge.to}`)
const cycles = folderCycles(edges)
const offenders = findSizeOffenders(root, [srcDir])
const files = offenders.filter((offender) => offender.kind === 'file')
const functions = offenders.filter((offender) => offender.kind === 'function')
const lines = [
  `folder imports ${edges.length}; folders importing each other ${mutual.length}: ${mutual.join(' ')}`,
  `folder circles ${cycles.length}: ${cycles.map((cycle) => cycle.join(',')).join(' | ')}`,
  `files over the limit ${files.length}:`,
  ...files.map((offender) => `  ${offenderKey(offender)} ${offender.lines}`),
  `functions over the limit ${functions.length}:`,
  ...functions.map((offender) => `  ${offenderKey(offender)} ${offender.lines}`),
]
process.stdout.write(`${lines.join('\n')}\n`)
