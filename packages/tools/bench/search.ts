/**
 * Grep and Glob over a generated 20,000-file tree (plus a gitignored node_modules of 2,000 files
 * that both engines must skip), ripgrep and built-in. Prints the median of 3 runs per figure.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import picomatch from 'picomatch'
import { type GrepEngine, searchFiles } from '../src/search/grep-search.js'
import type { GrepQuery } from '../src/search/grep-types.js'
import { listFiles } from '../src/search/list-files.js'
import { newestFirst } from '../src/search/mtime-order.js'

const DIRS = 200
const FILES_PER_DIR = 100

function source(dir: number, file: number): string {
  const id = dir * FILES_PER_DIR + file
  const lines = [
    `import { helper${(id + 1) % 20_000} } from '../d${(dir + 1) % DIRS}/f${file}'`,
    '',
    `export function helper${id}(value: number): number {`,
    `  // compute the value for item ${id}`,
    '  const doubled = value * 2',
    '  return doubled + 1',
    '}',
    '',
    `export const NAME_${id} = 'item-${id}'`,
  ]
  // One file in a hundred (a .js one) holds the rare word.
  if (id % 100 === 8) lines.push(`// needle_${id}: the rare marker`)
  return `${lines.join('\n')}\n`
}

async function generate(root: string): Promise<void> {
  await writeFile(join(root, '.gitignore'), 'node_modules/\n')
  for (let dir = 0; dir < DIRS; dir += 1) {
    const folder = join(root, 'src', `d${dir}`)
    await mkdir(folder, { recursive: true })
    await Promise.all(
      Array.from({ length: FILES_PER_DIR }, (_, file) =>
        writeFile(join(folder, `f${file}.${file % 4 === 0 ? 'js' : 'ts'}`), source(dir, file)),
      ),
    )
  }
  for (let dir = 0; dir < 20; dir += 1) {
    const folder = join(root, 'node_modules', `pkg${dir}`)
    await mkdir(folder, { recursive: true })
    await Promise.all(
      Array.from({ length: 100 }, (_, file) => writeFile(join(folder, `i${file}.js`), '// needle_ignored\n')),
    )
  }
}

async function median(run: () => Promise<unknown>): Promise<{ ms: number; result: unknown }> {
  const times: number[] = []
  let result: unknown
  for (let round = 0; round < 3; round += 1) {
    const started = performance.now()
    result = await run()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return { ms: Math.round(times[1]!), result }
}

/** What the Glob tool does: list, match, stat, newest first. */
async function glob(root: string, pattern: string, engine: GrepEngine): Promise<number> {
  const listed = await listFiles(root, '', engine)
  if (!listed.ok) throw new Error(listed.message)
  const matches = picomatch(pattern, { dot: true })
  const paths = listed.files.filter((file) => matches(file)).map((file) => join(root, file))
  return (await newestFirst(paths, (path) => path)).length
}

async function grep(query: GrepQuery, engine: GrepEngine): Promise<string> {
  const outcome = await searchFiles(query, engine)
  if (!outcome.ok) throw new Error(outcome.message)
  const lines = outcome.files.reduce((sum, file) => sum + file.lines.length, 0)
  return `${outcome.files.length} files, ${lines} lines (${outcome.engine})`
}

const root = await mkdtemp(join(tmpdir(), 'ze-search-bench-'))
try {
  const started = performance.now()
  await generate(root)
  console.log(
    `generated ${DIRS * FILES_PER_DIR} files (+2,000 gitignored) in ${Math.round(performance.now() - started)} ms`,
  )
  const base: GrepQuery = {
    pattern: '',
    root,
    globs: [],
    types: [],
    caseInsensitive: false,
    multiline: false,
    mode: 'files_with_matches',
    before: 0,
    after: 0,
  }
  const engines: GrepEngine[] = ['ripgrep', 'builtin']
  for (const engine of engines) {
    const rare = await median(() => grep({ ...base, pattern: 'needle_\\d+' }, engine))
    console.log(`Grep files_with_matches 'needle_\\d+' [${engine}]: ${rare.ms} ms — ${rare.result}`)
    const content = await median(() =>
      grep({ ...base, pattern: 'return doubled', mode: 'content', after: 1 }, engine),
    )
    console.log(`Grep content 'return doubled' -A 1 [${engine}]: ${content.ms} ms — ${content.result}`)
    const typed = await median(() =>
      grep({ ...base, pattern: 'needle', types: ['js'], caseInsensitive: true }, engine),
    )
    console.log(`Grep -i type js 'needle' [${engine}]: ${typed.ms} ms — ${typed.result}`)
    const globbed = await median(() => glob(root, '**/*.ts', engine))
    console.log(
      `Glob '**/*.ts' (list, match, stat, sort) [${engine}]: ${globbed.ms} ms — ${globbed.result} files`,
    )
  }
} finally {
  await rm(root, { recursive: true, force: true })
}
