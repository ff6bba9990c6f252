/**
 * Vitest's file order for a run with no cache (a fresh clone, as CI runs): the slowest files first,
 * so no minute-long file starts last and runs alone while the other workers sit idle. Vitest's own
 * order uses its results cache when there is one; with none it keeps the glob order, which put a
 * 70 s file at the very end of some CI runs.
 */
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * Files that took 8 s or more on an idle two-core machine (CI of 2026-12, `pnpm test:ci`'s report),
 * in seconds. Approximate on purpose: only the order matters, and a file missing here simply runs
 * after these.
 */
const SLOW_FILES: Readonly<Record<string, number>> = {
  'packages/store/test/crash.test.ts': 72,
  'packages/engine/test/claude-agent-sdk-conformance.test.ts': 47,
  'test/packaging/libraries.test.ts': 38,
  'packages/policy/test/fuzz/shell-proof.fuzz.test.ts': 24,
  'apps/cli/test/packaging.test.ts': 21,
  'apps/cli/test/mcp-claude-json.test.ts': 17,
  'packages/host/src/sandbox/escape.test.ts': 17,
  'packages/host/src/sandbox/escape-toolchains.test.ts': 11,
  'packages/engine/test/engine-lsp.test.ts': 14,
  'packages/engine/test/engine-scenarios.test.ts': 14,
  'packages/engine/test/engine-crash-resume.test.ts': 12,
  'packages/engine/test/engine-mcp.test.ts': 11,
  'packages/engine/test/engine-prefix-stability.test.ts': 11,
  'packages/engine/src/mcp/mcp-manager.test.ts': 11,
  'packages/engine/test/engine-decisions-safety.test.ts': 10,
  'packages/engine/test/api-types.test.ts': 10,
  'apps/cli/test/tui/chat-app.test.ts': 9,
  'apps/cli/test/claude-print-parity.test.ts': 8,
  'apps/cli/test/sessions.test.ts': 8,
  'packages/engine/test/engine-decisions-task-view.test.ts': 8,
}

/** Vitest's sequencer, with the known slow files first when the results cache knows nothing. */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const cache = this.ctx.cache
    const key = (file: TestSpecification) =>
      `${file.project.name}:${relative(this.ctx.config.root, file.moduleId)}`
    // A cache that knows any of these files has real durations: vitest's order is the better one.
    if (files.some((file) => cache.getFileTestResults(key(file)) !== undefined)) return super.sort(files)
    const seconds = (file: TestSpecification) =>
      SLOW_FILES[relative(this.ctx.config.root, file.moduleId).replaceAll('\\', '/')] ?? 0
    return [...files].sort((a, b) => seconds(b) - seconds(a))
  }
}
