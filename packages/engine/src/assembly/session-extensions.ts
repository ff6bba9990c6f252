import type { Redactor } from '@z-engine/policy'
import type { Orchestration } from '../orchestration/create-orchestration.js'
import type { RepoMapService } from '../repo-map/repo-map-service.js'
import type { SessionServices } from '../session/services.js'
import type { SessionCore } from '../session/session-core.js'
import type { SessionExtensions } from '../session/session-types.js'
import type { AssembleInput } from './assemble-input.js'
import type { CommandRunner } from './command-runner.js'
import type { SessionModels } from './model-port.js'
import { rewindSession, undoRewind } from './rewind.js'
import type { SessionCompaction } from './session-compaction.js'
import type { SessionGuard } from './session-guard.js'
import type { Notify } from './session-notices.js'
import type { ToolServices } from './session-tool-services.js'
import type { SessionSystemPrompt } from './system-prompt.js'
import { runUserShell, userLineGrant } from './user-shell.js'

/** The services the session actor's commands plug into. */
export interface ExtensionParts {
  input: AssembleInput
  core: SessionCore
  services: SessionServices
  guard: SessionGuard
  redactor: Redactor
  tools: ToolServices
  models: SessionModels
  orchestration: Orchestration
  compaction: SessionCompaction
  system: SessionSystemPrompt
  commands: CommandRunner
  reload: NonNullable<SessionExtensions['reload']>
  repoMap: RepoMapService | undefined
  notice: Notify
}

/**
 * What the session actor's commands reach beyond the core: compaction, the gate, jobs, the system
 * prompt, `/` commands, `!` lines, reload, rewind, the full history, and what closes with it.
 */
export function sessionExtensions(parts: ExtensionParts): SessionExtensions {
  const { input, core, services, guard, tools, orchestration, notice } = parts
  const { projectRoot, env } = input
  const settings = input.loaded.settings
  const { gate, sandbox, processes } = guard
  return {
    compaction: parts.compaction,
    gate,
    jobs: orchestration.jobs,
    agentChanges: orchestration.agentChanges,
    system: parts.system,
    runCommand: (name, args) => parts.commands.run(name, args),
    runShell: async (command) => {
      // The user's own `!` line: confined as the same decision on a Bash call would be (issue 34).
      const grant = await userLineGrant(command, {
        gate,
        mode: input.state.mode,
        settings,
        projectRoot,
        home: input.paths.home,
      })
      const result = await runUserShell(command, {
        cwd: projectRoot,
        settings,
        baseEnv: env,
        sandbox,
        request: { root: projectRoot, additionalDirectories: gate.additionalDirectories, ...grant },
        scope: processes,
      })
      return { output: parts.redactor.redact(result.output.trimEnd()), exitCode: result.exitCode }
    },
    reload: parts.reload,
    undoRewind: () =>
      undoRewind(input.sessionId, services.checkpoints, (level, message, code) =>
        notice(level, message, code),
      ),
    rewind: (messageId, scope, rewindOptions) =>
      rewindSession(
        {
          sessionId: input.sessionId,
          journal: (event) => core.journal(event),
          log: services.log,
          store: input.store,
          state: input.state,
          notice: (level, message, code) => notice(level, message, code),
        },
        services.checkpoints,
        messageId,
        scope,
        rewindOptions,
      ),
    replayWorkingSet: async () => {
      await services.log.sync()
      const replayed = await input.store.replay(input.sessionId)
      if (!replayed.ok) throw new Error(`The full history could not be reloaded: ${replayed.error.message}`)
      return [...replayed.value.snapshot.workingSet]
    },
    ...(input.resumed
      ? {}
      : {
          discardIfEmpty: async () => {
            await input.store.delete(input.sessionId)
          },
        }),
    dispose: async () => {
      await parts.repoMap?.close()
      await tools.mcp.close()
      await tools.lsp?.close()
      await orchestration.shutdown()
      await tools.jobs.shutdown()
      // What Bash commands, `!` lines and hooks left running (`server &`) ends with the session.
      await processes.killAll()
      await sandbox.dispose()
      await parts.models.close()
    },
  }
}
