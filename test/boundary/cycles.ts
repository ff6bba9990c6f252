import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { specifiersOf } from './check.js'

/** One import circle: the files in it, each importing the next and the last the first. */
export interface ImportCycle {
  files: string[]
}

/** Every TypeScript source file below `dir` (declarations, `dist`, `node_modules` and fixtures aside). */
export function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  const files: string[] = []
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'fixtures') continue
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path))
    else if (/\.(ts|tsx|mts)$/.test(entry) && !entry.endsWith('.d.ts')) files.push(path)
  }
  return files
}

// A relative specifier names `x.js` (NodeNext) while the file on disk is `x.ts`.
function resolveRelative(from: string, specifier: string, known: ReadonlySet<string>): string | undefined {
  const base = resolve(dirname(from), specifier)
  const candidates = [
    base,
    base.replace(/\.js$/, '.ts'),
    base.replace(/\.js$/, '.tsx'),
    base.replace(/\.mjs$/, '.mts'),
    `${base}.ts`,
    join(base, 'index.ts'),
  ]
  return candidates.find((candidate) => known.has(candidate))
}

/**
 * Every import circle among the TypeScript files under `dirs` (relative imports only: packages
 * import each other one way, which the boundary check enforces). Type-only imports count too: a
 * type circle is still two modules that cannot be understood apart. Strongly connected components
 * (Tarjan), so each circle is reported once however many paths run through it.
 */
export function findImportCycles(root: string, dirs: readonly string[]): ImportCycle[] {
  const files = dirs.flatMap((dir) => sourceFiles(join(root, dir)))
  const known = new Set(files)
  const edges = new Map<string, string[]>()
  for (const file of files) {
    const targets = new Set<string>()
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue
      const target = resolveRelative(file, specifier, known)
      if (target) targets.add(target)
    }
    edges.set(file, [...targets])
  }

  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: ImportCycle[] = []
  // Iterative Tarjan: the engine's graph is deep enough that recursion is a needless risk.
  for (const start of files) {
    if (index.has(start)) continue
    const work: Array<{ node: string; next: number }> = [{ node: start, next: 0 }]
    index.set(start, counter)
    low.set(start, counter)
    counter += 1
    stack.push(start)
    onStack.add(start)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      const targets = edges.get(frame.node) ?? []
      if (frame.next < targets.length) {
        const target = targets[frame.next]!
        frame.next += 1
        if (!index.has(target)) {
          index.set(target, counter)
          low.set(target, counter)
          counter += 1
          stack.push(target)
          onStack.add(target)
          work.push({ node: target, next: 0 })
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!))
        }
        continue
      }
      work.pop()
      const parent = work[work.length - 1]
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!))
      if (low.get(frame.node) !== index.get(frame.node)) continue
      const component: string[] = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== frame.node)
      const selfImport = (edges.get(frame.node) ?? []).includes(frame.node)
      if (component.length > 1 || selfImport) {
        cycles.push({ files: component.map((file) => relative(root, file)).sort() })
      }
    }
  }
  return cycles
}

/** The source folders of every package and app under `root`. */
export function packageSourceDirs(root: string): string[] {
  const dirs: string[] = []
  for (const parent of ['packages', 'apps']) {
    const base = join(root, parent)
    if (!existsSync(base)) continue
    for (const entry of readdirSync(base)) {
      if (existsSync(join(base, entry, 'package.json'))) dirs.push(join(parent, entry, 'src'))
    }
  }
  return dirs
}
