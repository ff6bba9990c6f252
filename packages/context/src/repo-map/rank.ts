import type { FileOutline } from './types.js'

// Names so common that a reference to them says nothing about which file is meant.
const IGNORED_NAMES = new Set([
  'constructor',
  '__init__',
  'new',
  'main',
  'default',
  'init',
  'toString',
  'String',
])

/**
 * Orders files for the repository map (spec 003): a file earns a point for every reference another
 * file makes to a top-level name it defines. Files the main agent touched come first (in the order given, most
 * relevant first), then their neighbours (files referencing or referenced by them), then the rest;
 * within each group by points, then path. Deterministic for the same input.
 */
export function rankFiles(outlines: readonly FileOutline[], touched: readonly string[] = []): FileOutline[] {
  const definers = new Map<string, number[]>()
  outlines.forEach((outline, index) => {
    // Tests consume names; nothing refers to what a test file defines.
    if (isTestPath(outline.path)) return
    const names = new Set<string>()
    for (const definition of outline.definitions) {
      // Only top-level names earn points: method names (`get`, `list`, `message`) are too generic to
      // say which file a reference means. An impl block names a type defined elsewhere.
      if (definition.depth > 0 || !definition.exported || definition.kind === 'impl') continue
      if (definition.name.length < 2 || IGNORED_NAMES.has(definition.name)) continue
      names.add(definition.name)
    }
    for (const name of names) {
      const list = definers.get(name)
      if (list) list.push(index)
      else definers.set(name, [index])
    }
  })

  const touchedIndex = new Map<string, number>()
  for (const path of touched) if (!touchedIndex.has(path)) touchedIndex.set(path, touchedIndex.size)
  const isTouched = outlines.map((outline) => touchedIndex.has(outline.path))
  const neighbour = new Array<boolean>(outlines.length).fill(false)
  const score = new Float64Array(outlines.length)

  outlines.forEach((outline, referrer) => {
    for (const [word, count] of outline.identifiers) {
      const files = definers.get(word)
      if (!files) continue
      for (const definer of files) {
        if (definer === referrer) continue
        score[definer]! += count
        if (isTouched[referrer]) neighbour[definer] = true
        if (isTouched[definer]) neighbour[referrer] = true
      }
    }
  })

  const order = outlines.map((_, index) => index)
  const group = (index: number) => (isTouched[index] ? 0 : neighbour[index] ? 1 : 2)
  order.sort((a, b) => {
    const byGroup = group(a) - group(b)
    if (byGroup !== 0) return byGroup
    if (group(a) === 0) {
      return touchedIndex.get(outlines[a]!.path)! - touchedIndex.get(outlines[b]!.path)!
    }
    const byScore = score[b]! - score[a]!
    if (byScore !== 0) return byScore
    const pathA = outlines[a]!.path
    const pathB = outlines[b]!.path
    return pathA < pathB ? -1 : pathA > pathB ? 1 : 0
  })
  return order.map((index) => outlines[index]!)
}

const TEST_PATH =
  /(^|\/)(tests?|__tests__|testdata|fixtures|__fixtures__)\/|\.(test|spec)\.[cm]?[jt]sx?$|_test\.go$|(^|\/)test_[^/]*\.py$|_test\.py$/

/** Whether a path is a test file or test data (by the usual naming conventions). */
export function isTestPath(path: string): boolean {
  return TEST_PATH.test(path)
}
