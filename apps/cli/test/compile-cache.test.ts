import { execFile } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import * as nodeModule from 'node:module'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { BIN, HAVE_DIST, sandbox } from './helpers.js'

const run = promisify(execFile)
const HAS_COMPILE_CACHE =
  typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function'

describe.runIf(HAVE_DIST)('compile cache (needs pnpm build)', () => {
  it(
    HAS_COMPILE_CACHE
      ? "fills NODE_COMPILE_CACHE on this Node, so the next run reads V8's compiled code"
      : 'runs without one on a Node that has none (Node 20)',
    async () => {
      const box = await sandbox()
      const cache = join(box.root, 'compile-cache')
      const { stdout } = await run(process.execPath, [BIN, '--version'], {
        env: { ...box.env, NODE_COMPILE_CACHE: cache },
      })
      expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/)
      const entries = existsSync(cache) ? readdirSync(cache, { recursive: true }) : []
      if (HAS_COMPILE_CACHE) expect(entries.length).toBeGreaterThan(0)
      else expect(entries).toEqual([])
    },
  )
})
