import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { specifiersOf } from './check.js'

/** One import between two top-level folders of a package's `src/`, with a file that makes it. */
export interface FolderEdge {
  from: string
  to: string
  /** One importing file (relative to the package's `src/`) and what it names. */
  example: string
}

/** Files directly in `src/` (entries such as `index.ts`) belong to this pseudo-folder. */
export const ROOT_FOLDER = '.'

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  const files: string[] = []
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'fixtures') continue
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path))
    else if (
      /\.(ts|tsx|mts)$/.test(entry) &&
      !entry.endsWith('.d.ts') &&
      !/\.test(-util)?\.tsx?$/.test(entry)
    ) {
      files.push(path)
    }
  }
  return files
}

/** The top-level folder of `src/` a file lives in (`session` for `src/session/x/y.ts`). */
export function folderOf(src: string, file: string): string {
  const parts = relative(src, file).split(sep)
  return parts.length === 1 ? ROOT_FOLDER : parts[0]!
}

/**
 * Every import from one top-level folder of `src` to another (relative imports of non-test source;
 * type-only imports count: a type is a dependency a reader follows too). One edge per folder pair.
 */
export function folderEdges(src: string): FolderEdge[] {
  const edges = new Map<string, FolderEdge>()
  for (const file of sourceFiles(src)) {
    const from = folderOf(src, file)
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue
      const target = resolve(dirname(file), specifier)
      if (relative(src, target).startsWith('..')) continue
      const to = folderOf(src, target)
      if (to === from) continue
      const key = `${from}\0${to}`
      if (!edges.has(key)) edges.set(key, { from, to, example: `${relative(src, file)} → ${specifier}` })
    }
  }
  return [...edges.values()].sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to))
}

/**
 * The folder circles: each strongly connected set of folders (two or more) that import each other,
 * sorted by name. Tarjan over a graph of a few dozen nodes, so recursion is fine here.
 */
export function folderCycles(edges: readonly FolderEdge[]): string[][] {
  const next = new Map<string, string[]>()
  for (const edge of edges) {
    next.set(edge.from, [...(next.get(edge.from) ?? []), edge.to])
    if (!next.has(edge.to)) next.set(edge.to, [])
  }
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const cycles: string[][] = []
  const visit = (node: string): void => {
    index.set(node, counter)
    low.set(node, counter)
    counter += 1
    stack.push(node)
    onStack.add(node)
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target)
        low.set(node, Math.min(low.get(node)!, low.get(target)!))
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!))
      }
    }
    if (low.get(node) !== index.get(node)) return
    const component: string[] = []
    let member: string
    do {
      member = stack.pop()!
      onStack.delete(member)
      component.push(member)
    } while (member !== node)
    if (component.length > 1) cycles.push(component.sort())
  }
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node)
  return cycles.sort((a, b) => a[0]!.localeCompare(b[0]!))
}

/** One broken folder rule: an upward import, a folder with no layer, or a circle. */
export interface FolderViolation {
  message: string
}

/**
 * Checks a package's folders against its layers (lowest first; a folder may import folders of its
 * own layer or any lower one, never a higher one) and against circles of any length.
 */
export function checkFolderLayers(
  src: string,
  layers: ReadonlyArray<{ name: string; folders: readonly string[] }>,
): FolderViolation[] {
  const layerOf = new Map<string, number>()
  layers.forEach((layer, rank) => {
    for (const folder of layer.folders) layerOf.set(folder, rank)
  })
  const violations: FolderViolation[] = []
  const present = new Set(
    readdirSync(src).filter((entry) => statSync(join(src, entry)).isDirectory() && entry !== 'fixtures'),
  )
  if (sourceFiles(src).some((file) => folderOf(src, file) === ROOT_FOLDER)) present.add(ROOT_FOLDER)
  for (const folder of [...present].sort()) {
    if (!layerOf.has(folder)) violations.push({ message: `folder '${folder}' is in no layer` })
  }
  const edges = folderEdges(src)
  for (const edge of edges) {
    const from = layerOf.get(edge.from)
    const to = layerOf.get(edge.to)
    if (from === undefined || to === undefined || to <= from) continue
    violations.push({
      message: `'${edge.from}' (layer ${layers[from]!.name}) imports '${edge.to}' (layer ${layers[to]!.name}), a higher layer: ${edge.example}`,
    })
  }
  for (const cycle of folderCycles(edges)) {
    violations.push({ message: `folders import each other: ${cycle.join(' ↔ ')}` })
  }
  return violations
}
