import { defineConfig } from 'tsup'

export default defineConfig({
  // The repository map's parsing thread is its own file, loaded with `new Worker` next to the bundle.
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing.ts',
    'outline-worker': 'src/repo-map/outline-worker.ts',
  },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  loader: { '.md': 'text' },
})
