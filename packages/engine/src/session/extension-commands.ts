import type { Command, PermissionMode } from '@z-engine/protocol'
import { runsWhileBusy } from '../workspace/commands/engine-builtins.js'
import type { EventHub } from './event-hub.js'
import { titleAfterRewind } from './rewind-title.js'
import type { CommandAction, SessionExtensions } from './session-types.js'
import type { SessionState } from './state.js'

/** The commands a session carries out through its extensions; without the extension they are refused. */
export type ExtensionCommand = Extract<
  Command,
  {
    type:
      | 'compact'
      | 'rewind'
      | 'undoRewind'
      | 'killJob'
      | 'runCommand'
      | 'trustWorkspace'
      | 'reloadSettings'
      | 'runShell'
      | 'applyAgentChanges'
      | 'discardAgentChanges'
  }
>

/** What the session lends an extension command. */
export interface ExtensionCommandHost {
  state: SessionState
  hub: EventHub
  extensions: SessionExtensions
  notice(level: 'info' | 'warning' | 'error', message: string, code?: string): void
  /** Runs work as the session's task (outside the command loop), as a turn runs. */
  startTask(work: (signal: AbortSignal) => Promise<void>): void
  carryOut(action: CommandAction): Promise<void>
  setMode(mode: PermissionMode): Promise<void>
  setTitle(title: string): Promise<void>
}

/**
 * Carries out one extension command: compaction, rewind and its undo, a job kill, a `/` command, a
 * reload (trust first, for `trustWorkspace`), a `!` line, a worktree agent's changes. What must not
 * overlap a running turn says so and waits for none. False when this session has no such extension.
 */
export async function runExtensionCommand(
  command: ExtensionCommand,
  host: ExtensionCommandHost,
): Promise<boolean> {
  const { state, extensions } = host
  switch (command.type) {
    case 'compact': {
      const compaction = extensions.compaction
      if (!compaction) return false
      if (state.activeTurn) {
        host.notice('warning', 'Wait for the turn to end (or interrupt it) before compacting.', 'busy')
        return true
      }
      host.startTask(() => compaction.compactNow(command.focus))
      return true
    }
    case 'rewind': {
      const rewind = extensions.rewind
      if (!rewind) return false
      if (state.activeTurn) {
        host.notice('warning', 'Interrupt the running turn before rewinding.', 'busy')
        return true
      }
      host.startTask(async () => {
        // The target turn's checkpoint may still be being taken (turns do not wait for it).
        await state.checkpointing
        const before = [...state.workingSet]
        // Journaled by the rewind itself (before the working set is rebuilt from the log).
        const outcome = await rewind(command.messageId, command.scope, {
          ...(command.dryRun ? { dryRun: true } : {}),
          ...(command.includeEdited ? { includeEdited: true } : {}),
          ...(command.only !== undefined ? { only: command.only } : {}),
        })
        // A title taken from a prompt the rewind removed goes with it.
        const title = titleAfterRewind(state.title, before, state.workingSet, outcome)
        if (title !== undefined) await host.setTitle(title)
        // Published last: what a client does on seeing the outcome (another rewind, to revert a file
        // whole) must find the session idle, and only microtasks separate this from the task's end.
        host.hub.publish(outcome)
      })
      return true
    }
    case 'undoRewind': {
      const undo = extensions.undoRewind
      if (!undo) return false
      if (state.activeTurn) {
        host.notice('warning', 'Interrupt the running turn before undoing a rewind.', 'busy')
        return true
      }
      host.startTask(async () => {
        await state.checkpointing
        host.hub.publish(await undo())
      })
      return true
    }
    case 'killJob': {
      const jobs = extensions.jobs
      if (!jobs) return false
      const killed = await jobs.kill(command.jobId)
      if (!killed)
        host.notice(
          'warning',
          `No job '${command.jobId}'. Running jobs: ${
            jobs
              .list()
              .map((job) => job.id)
              .join(', ') || 'none'
          }.`,
        )
      return true
    }
    case 'runCommand': {
      const run = extensions.runCommand
      if (!run) return false
      if (state.activeTurn && !runsWhileBusy(command.name)) {
        host.notice('warning', `Wait for the turn to end before running /${command.name}.`, 'busy')
        return true
      }
      await host.carryOut(await run(command.name, command.args))
      return true
    }
    case 'trustWorkspace':
    case 'reloadSettings': {
      const reload = extensions.reload
      if (!reload) return false
      // Declining only dismisses the request; nothing changes.
      if (command.type === 'trustWorkspace' && !command.trusted) return true
      const { mode } = await reload(command.type === 'trustWorkspace')
      if (mode !== undefined) await host.setMode(mode)
      return true
    }
    case 'runShell':
      return runShellLine(command, host)
    case 'applyAgentChanges':
    case 'discardAgentChanges': {
      const changes = extensions.agentChanges
      if (!changes) return false
      if (command.type === 'applyAgentChanges') await changes.apply(command.agentId)
      else await changes.discard(command.agentId)
      return true
    }
    default: {
      const unreachable: never = command
      throw new Error(`unknown extension command ${JSON.stringify(unreachable)}`)
    }
  }
}

/** The user's `!` line: its output is shown, and the model sees it with the next message. */
function runShellLine(command: Extract<Command, { type: 'runShell' }>, host: ExtensionCommandHost): boolean {
  const runShell = host.extensions.runShell
  if (!runShell) return false
  if (host.state.activeTurn) {
    host.notice('warning', 'Wait for the turn to end before running a shell command.', 'busy')
    return true
  }
  host.startTask(async () => {
    const { output, exitCode } = await runShell(command.command)
    host.hub.publish({
      type: 'commandOutput',
      name: '!',
      markdown: `\`$ ${command.command}\` (exit ${exitCode ?? 'killed'})\n\n\`\`\`\n${output}\n\`\`\``,
    })
    // The model sees what the user ran with the next message.
    host.state.reminders.push(
      `The user ran \`${command.command}\` (exit ${exitCode ?? 'killed'}):\n${output}`,
    )
  })
  return true
}
