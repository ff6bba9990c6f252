/**
 * Repository-map build times: a generated 2,000-file TypeScript tree (the walk keeps the newest 400)
 * and this repository. The first build in the process includes loading the grammars.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { buildRepoMap } from '../src/repo-map/repo-map-build.js'

function moduleSource(index: number): string {
  const next = (index + 1) % 2_000
  const lines = [
    `import { helper${next}, Model${next} } from '../d${Math.floor(next / 50)}/m${next}'`,
    '',
    `export interface Options${index} {`,
    '  name: string',
    '  retries?: number',
    '}',
    '',
    `export const LIMIT_${index} = ${index}`,
    '',
    `export function helper${index}(options: Options${index}, count = 3): Promise<string[]> {`,
    '  const out: string[] = []',
    '  for (let i = 0; i < count; i++) out.push(options.name + String(i))',
    `  return Promise.resolve(out.concat(String(helper${next})))`,
    '}',
    '',
    `export class Model${index} extends Model${next} {`,
    '  private readonly items = new Map<string, number>()',
    '  constructor(readonly id: string) {',
    '    super(id)',
    '  }',
    '  async load(path: string): Promise<void> {',
    '    this.items.set(path, path.length)',
    '  }',
    '  get size(): number {',
    '    return this.items.size',
    '  }',
    '}',
  ]
  // Pad to a typical source file size (~3 KB) with more functions.
  for (let extra = 0; extra < 6; extra++) {
    lines.push(
      '',
      `export function util${index}_${extra}(value: number): number {`,
      '  return value * 2 + 1',
      '}',
    )
  }
  return `${lines.join('\n')}\n`
}

async function generateTree(files: number): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'z-repo-map-bench-'))
  for (let dir = 0; dir < files / 50; dir++) {
    await mkdir(join(root, `src/d${dir}`), { recursive: true })
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        writeFile(join(root, `src/d${dir}/m${dir * 50 + i}.ts`), moduleSource(dir * 50 + i)),
      ),
    )
  }
  return root
}

const generated = await generateTree(2_000)
try {
  const cold = await buildRepoMap({ root: generated })
  const warm = await buildRepoMap({ root: generated })
  console.log(
    `generated 2,000-file TS tree, cold (grammar load + walk + ${cold.outlined} files): ${cold.durationMs.toFixed(0)} ms`,
  )
  console.log(
    `generated 2,000-file TS tree, warm (${warm.outlined} files outlined): ${warm.durationMs.toFixed(0)} ms`,
  )
  console.log(`identical output across builds: ${cold.text === warm.text}`)
} finally {
  await rm(generated, { recursive: true, force: true })
}
const repository = resolve(import.meta.dirname, '../../..')
const cache = new Map()
const own = await buildRepoMap({ root: repository, cache })
console.log(
  `this repository (${own.visited} paths, ${own.outlined} files outlined): ${own.durationMs.toFixed(0)} ms`,
)
const rebuilt = await buildRepoMap({ root: repository, cache })
console.log(
  `this repository, rebuild with the outline cache (${rebuilt.reused} of ${rebuilt.outlined} reused): ${rebuilt.durationMs.toFixed(0)} ms`,
)
