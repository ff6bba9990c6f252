import { checksToSkip } from '../decisions/seams/check-select.js'
import type { SessionCore } from '../session/session-core.js'
import { WorkspaceFingerprint } from '../verification/fingerprint.js'
import { SessionVerification } from '../verification/session-verification.js'
import { createStopChecks } from '../verification/stop-checks.js'
import type { AssembleInput } from './assemble-input.js'
import type { SessionGuard } from './session-guard.js'
import type { Notify } from './session-notices.js'
import type { ToolServices } from './session-tool-services.js'
import type { SessionWorkspace } from './session-workspace.js'

/** The session's checks: discovery and records (the CheckPort), and the run at the stop boundary. */
export interface SessionChecks {
  verification: SessionVerification
  atStop: ReturnType<typeof createStopChecks>
}

/**
 * Checks are discovered in the background (nothing runs); Verify is offered unless the mode is
 * off. `core` is read lazily: records are committed and the decision hub consulted once it exists.
 */
export function createSessionChecks(
  input: AssembleInput,
  tools: ToolServices,
  guard: SessionGuard,
  workspace: SessionWorkspace,
  notice: Notify,
  core: () => SessionCore,
): SessionChecks {
  const { projectRoot, state } = input
  const settings = input.loaded.settings
  const { gate } = guard
  const { toolContext } = tools
  const verification = new SessionVerification({
    projectRoot,
    settings,
    fingerprint: new WorkspaceFingerprint(projectRoot, toolContext.env),
    record: (record) =>
      core().commit(
        { type: 'checkRecorded', record },
        state.activeTurn !== undefined ? { turnId: state.activeTurn.id } : {},
      ),
    spill: tools.spill,
    newId: input.newId,
    replayed: state.checks,
  })
  verification.start()
  if (settings.verification.mode !== 'off') tools.ports.checks = verification
  const atStop = createStopChecks({
    verification,
    settings,
    get trusted() {
      return workspace.trusted
    },
    runner: (signal) => (command, options) =>
      toolContext.shell.run(command, {
        cwd: options.cwd,
        timeoutMs: options.timeoutMs,
        signal,
        // A check runs the project's own code (its test script): confined like an auto-allowed
        // build whenever a backend exists (issue 34).
        sandbox: {
          root: projectRoot,
          additionalDirectories: [...gate.additionalDirectories],
          granted: 'write',
        },
        ...(options.onOutput !== undefined ? { onOutput: options.onOutput } : {}),
      }),
    denied: (check) =>
      gate.decide(
        'Verify',
        { type: 'execute', command: check.command, cwd: check.cwd, check: check.id },
        state.mode,
      ).decision === 'deny',
    notice: (level, message) => notice(level, message, 'verification'),
    select: (checks, signal) => {
      const records = verification.records()
      const lastFailed = (id: string) => records.findLast((record) => record.checkId === id)?.passed === false
      return checksToSkip(
        core().services.decisions,
        checks.map((check) => ({ id: check.id, command: check.command, lastFailed: lastFailed(check.id) })),
        [],
        signal,
      )
    },
  })
  return { verification, atStop }
}
