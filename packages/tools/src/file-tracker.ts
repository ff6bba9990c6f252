import type { FileSnapshot, FileTracker } from './ctx.js'

/** An in-memory FileTracker, one per agent (paths are absolute). */
export function createFileTracker(): FileTracker {
  const reads = new Map<string, FileSnapshot>()
  return {
    recordRead: (path, snapshot) => {
      reads.set(path, { ...snapshot })
    },
    lastRead: (path) => reads.get(path),
    forget: (path) => {
      reads.delete(path)
    },
    paths: () => [...reads.keys()],
  }
}
