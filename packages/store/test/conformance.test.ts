import { appendFile, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'vitest'
import { openStore, runStoreConformance, sessionPaths } from '../src/index.js'

describe('file store conformance', () => {
  runStoreConformance(async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'z-store-conformance-'))
    return {
      store: openStore({ dataDir }),
      appendRawBytes: (sessionId, bytes) => appendFile(sessionPaths(dataDir, sessionId).log, bytes),
      cleanup: () => rm(dataDir, { recursive: true, force: true }),
    }
  }, it)
})
