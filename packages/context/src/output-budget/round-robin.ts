/** The first item of every list, then the second of every list, and so on. */
export function* roundRobin<T>(lists: readonly (readonly T[])[]): Generator<T> {
  const longest = lists.reduce((max, list) => Math.max(max, list.length), 0)
  for (let round = 0; round < longest; round++) {
    for (const list of lists) if (round < list.length) yield list[round]!
  }
}
