import type { PathLocks } from './ctx.js'

/**
 * In-process path locks shared by every agent of a session: each path has a promise chain, and a
 * call holding several paths takes them in sorted order so two calls can never wait on each other.
 */
export function createPathLocks(): PathLocks {
  const tails = new Map<string, Promise<void>>()

  const acquire = async (path: string): Promise<() => void> => {
    const previous = tails.get(path) ?? Promise.resolve()
    let release!: () => void
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    const tail = previous.then(() => held)
    tails.set(path, tail)
    await previous
    return () => {
      release()
      // Drop the entry when nobody queued behind us, so the map does not grow forever.
      if (tails.get(path) === tail) tails.delete(path)
    }
  }

  return {
    async withLocks<T>(paths: string[], work: () => Promise<T>): Promise<T> {
      const releases: Array<() => void> = []
      try {
        for (const path of [...new Set(paths)].sort()) releases.push(await acquire(path))
        return await work()
      } finally {
        for (const release of releases.reverse()) release()
      }
    },
  }
}
