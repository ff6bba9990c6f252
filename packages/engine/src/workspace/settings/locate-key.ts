/**
 * Finds the line of a TOML document that sets a key path such as `hooks.PreToolUse[1].timeout_secs`
 * or `permissions.allow[2]` (the form ajv errors are reported in). A line-oriented scan, good enough
 * for messages: it follows `[table]` and `[[array.of.tables]]` headers and dotted keys, and returns
 * the line of the longest matching prefix (1-based), or undefined.
 */
export function locateKey(text: string, keyPath: string): number | undefined {
  const wanted = splitKeyPath(keyPath)
  if (wanted.length === 0) return undefined
  const arrayCounts = new Map<string, number>()
  let table: string[] = []
  let best: { line: number; length: number } | undefined
  const consider = (path: string[], line: number) => {
    const length = commonPrefix(path, wanted)
    // Only a full match of the line's own path counts: `a.b = 1` says nothing about `a.c`.
    if (length === path.length && (best === undefined || length > best.length)) best = { line, length }
  }
  const lines = text.split(/\r?\n/)
  lines.forEach((raw, index) => {
    const line = raw.trim()
    const arrayHeader = /^\[\[\s*([^\]]+?)\s*\]\]/.exec(line)
    if (arrayHeader) {
      const name = splitDotted(arrayHeader[1]!)
      const joined = name.join('.')
      const position = arrayCounts.get(joined) ?? 0
      arrayCounts.set(joined, position + 1)
      table = [...name, String(position)]
      consider(table, index + 1)
      return
    }
    const header = /^\[\s*([^\]]+?)\s*\]/.exec(line)
    if (header) {
      table = splitDotted(header[1]!)
      consider(table, index + 1)
      return
    }
    const assignment =
      /^((?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"]*"|'[^']*'))*)\s*=/.exec(line)
    if (assignment) consider([...table, ...splitDotted(assignment[1]!)], index + 1)
  })
  return best?.line
}

/** `hooks.PreToolUse[1].command` → `['hooks', 'PreToolUse', '1', 'command']`. */
export function splitKeyPath(keyPath: string): string[] {
  return keyPath
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((segment) => segment !== '')
}

function splitDotted(key: string): string[] {
  const segments: string[] = []
  for (const match of key.matchAll(/"([^"]*)"|'([^']*)'|([^.\s]+)/g))
    segments.push(match[1] ?? match[2] ?? match[3]!)
  return segments
}

function commonPrefix(a: readonly string[], b: readonly string[]): number {
  let length = 0
  while (length < a.length && length < b.length && a[length] === b[length]) length++
  return length
}
