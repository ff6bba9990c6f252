import { readFileSync } from 'node:fs'
import { defineConfig } from 'vitest/config'

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
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
})
