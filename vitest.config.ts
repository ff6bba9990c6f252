import { readFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'
import { SlowFirstSequencer } from './scripts/slow-first-sequencer.js'

// Tests run against each package's TypeScript source (the `@z-engine/source` export condition),
// so `vitest` needs no build; only CLI end-to-end tests use the built `dist/`.
export default defineConfig({
  resolve: { conditions: ['@z-engine/source'] },
  // Vite 6+ resolves server-side (test) imports with `ssr.resolve.conditions`, not `resolve.conditions`.
  ssr: { resolve: { conditions: ['@z-engine/source', 'node'] } },
  plugins: [
    {
      // Prompts are markdown files imported as strings; tsup does the same with its `text` loader.
      name: 'markdown-as-text',
      enforce: 'pre',
      load(id) {
        if (!id.endsWith('.md')) return null
        return `export default ${JSON.stringify(readFileSync(id, 'utf8'))}`
      },
    },
  ],
  test: {
    include: [
      'packages/*/src/**/*.test.ts',
      'packages/*/test/**/*.test.ts',
      'apps/*/src/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    exclude: ['**/node_modules/**', '**/dist/**', '**/fixtures/**'],
    // Ceilings, not waits: a test returns as soon as what it waits for happens. CI's machine is
    // loaded (two cores, several suites), where a start that takes 1 s idle can take twenty.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // expect.poll's own default (1 s) is a race on a loaded machine.
    expect: { poll: { timeout: 30_000 } },
    pool: 'forks',
    // A worker keeps the modules it loaded from one file to the next instead of evaluating the
    // engine's graph again for each of 320 files: half the CPU of the unit-heavy packages (policy,
    // context, engine/src: 127 s → 66 s). Tests hold no module-level state between files (no
    // vi.mock; env stubs and fake timers are undone in the file that sets them).
    isolate: false,
    // Most files spend their time waiting on child processes (git, bubblewrap, the CLI, servers), so
    // two more workers than cores keep both cores busy (on two cores: 3 workers 473 s, 4 workers
    // 428 s for the whole suite); vitest's default (cores - 1) runs one file at a time on two cores.
    // The stress script proves the suite under heavier load than this. `Z_ENGINE_TEST_WORKERS`
    // overrides it.
    maxWorkers: Number(process.env.Z_ENGINE_TEST_WORKERS) || availableParallelism() + 2,
    // A fresh clone has no results cache; without it a minute-long file could start last.
    sequence: { sequencer: SlowFirstSequencer },
  },
})
