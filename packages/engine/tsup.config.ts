import { defineConfig } from 'tsup'
import { embedGenerated, packageBuild, yamlAsEsm } from '../../scripts/build/tsup-base.js'

export default defineConfig(
  packageBuild(
    {
      index: 'src/index.ts',
      testing: 'src/testing.ts',
      // The CLI's and the gateway's entries, one per purpose (docs/embedding.md, "Entry points").
      settings: 'src/settings-entry.ts',
      definitions: 'src/definitions-entry.ts',
      hooks: 'src/hooks-entry.ts',
      plugins: 'src/plugins-entry.ts',
      mcp: 'src/mcp-entry.ts',
      models: 'src/models-entry.ts',
      'claude-messages': 'src/claude-messages-entry.ts',
      web: 'src/web-entry.ts',
      repository: 'src/repository-entry.ts',
      sandbox: 'src/sandbox-entry.ts',
      'session-access': 'src/session-access-entry.ts',
      'claude-agent-sdk': 'src/claude-agent-sdk.ts',
      // findProjectRoot alone (Node built-ins only), for start-up paths that must not load the engine.
      'project-root': 'src/project-root-entry.ts',
      // The repository map's parsing thread is its own file, loaded with `new Worker` next to the bundle.
      'outline-worker': 'src/repo-map/outline-worker.ts',
    },
    {
      // ESM-only; bundled so the CommonJS build needs no require(esm) (see BUNDLED in test/boundary).
      // yaml: inlined from its ES module build, so embedders' ESM bundles need no require shim.
      noExternal: ['p-limit', 'yocto-queue', 'yaml'],
      esbuildPlugins: [
        yamlAsEsm(),
        embedGenerated('src/batch/precompiled-tool-validators.ts', 'generated/tool-validators.js'),
      ],
    },
  ),
)
