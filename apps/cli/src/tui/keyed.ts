/**
 * Pairs rows derived from text (lines of a diff, markdown blocks, output tails) with position keys.
 * Such rows are never reordered or edited in place, so their position is their identity; React
 * only needs the keys to be unique among siblings.
 */
export function keyed<T>(items: readonly T[], prefix: string): Array<{ key: string; item: T }> {
  const rows: Array<{ key: string; item: T }> = []
  for (const [position, item] of items.entries()) rows.push({ key: `${prefix}${position}`, item })
  return rows
}
