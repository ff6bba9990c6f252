// Reading and writing one key of nested settings objects by its path (`['shell', 'sandbox', 'enabled']`).

/** The value at `path` in nested objects; `undefined` where a step is missing or not an object. */
export function valueAt(root: unknown, path: readonly string[]): unknown {
  let holder = root
  for (const key of path) {
    if (typeof holder !== 'object' || holder === null) return undefined
    holder = (holder as Record<string, unknown>)[key]
  }
  return holder
}

/** Sets `path` to `value`, creating the objects on the way; `undefined` removes the key. */
export function setAt(root: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let holder = root
  for (const key of path.slice(0, -1)) {
    holder[key] ??= {}
    holder = holder[key] as Record<string, unknown>
  }
  const last = path[path.length - 1]!
  if (value === undefined) delete holder[last]
  else holder[last] = value
}
