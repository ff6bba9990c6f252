/**
 * Issue 20 benchmark: language server start → first diagnostics for a TypeScript fixture, through
 * the session's LspManager as a Write sees it (real typescript-language-server + typescript from
 * this package's devDependencies), median of 3 cold starts; and a warm re-check of the same file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { ProcessScope } from '@z-engine/host'
import { LspManager } from '../src/lsp/lsp-manager.js'

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
const PATH = `${resolve(import.meta.dirname, '..', 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}`
const signal = new AbortController().signal
const cold: number[] = []
const warm: number[] = []
for (let run = 0; run < 3; run++) {
  const root = mkdtempSync(join(tmpdir(), 'ze-bench-lsp-'))
  writeFileSync(join(root, 'tsconfig.json'), '{"compilerOptions":{"strict":true}}\n')
  writeFileSync(
    join(root, 'math.ts'),
    'export function add(a: number, b: number): number {\n  return a + b\n}\n',
  )
  const main = join(root, 'main.ts')
  writeFileSync(main, "import { add } from './math.js'\n\nconst total: string = add(1, 2)\n")
  const manager = new LspManager({
    root,
    settings: { enabled: true, diagnostics_wait_ms: 120_000, servers: {} },
    env: { PATH, HOME: root },
    scope: new ProcessScope(),
    trusted: () => true,
    notice: () => {},
  })
  let started = performance.now()
  const first = await manager.diagnosticsAfterWrite(main, signal)
  cold.push(performance.now() - started)
  if (first === undefined) throw new Error('no diagnostics from typescript-language-server')
  writeFileSync(main, "import { add } from './math.js'\n\nconst total: boolean = add(1, 2)\n")
  started = performance.now()
  await manager.diagnosticsAfterWrite(main, signal)
  warm.push(performance.now() - started)
  await manager.close()
  rmSync(root, { recursive: true, force: true })
}
console.log(
  `lsp (typescript-language-server): start → first error diagnostics median ${median(cold).toFixed(0)} ms [${cold.map((v) => v.toFixed(0)).join(', ')}]; warm write → diagnostics median ${median(warm).toFixed(0)} ms [${warm.map((v) => v.toFixed(0)).join(', ')}] (includes the 500 ms settle)`,
)
