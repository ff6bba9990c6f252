import { ProcessScope } from '@z-engine/host'
import { ruleLayersOf } from '../gate/policy-gate.js'
import { SessionGate } from '../gate/session-gate.js'
import type { AssembleInput } from './assemble-input.js'
import type { ServerConfinerInput } from './server-confiner.js'
import type { Notify } from './session-notices.js'
import { DeferredSessionSandbox } from './session-sandbox.js'

/** A session's sandbox, its one permission gate, and the scope of every process it starts. */
export interface SessionGuard {
  sandbox: DeferredSessionSandbox
  gate: SessionGate
  /** Every process the session starts (Bash, jobs, hooks, `!` lines) is killed when it closes. */
  processes: ProcessScope
  /** What confines the programs the engine starts itself (language servers, MCP stdio servers). */
  confinement: ServerConfinerInput
}

/**
 * The sandbox and the gate, each reading the other lazily: the sandbox masks what Read deny rules
 * name; the gate's shell decisions wait for the sandbox's facts.
 */
export function createSessionGuard(input: AssembleInput, notice: Notify): SessionGuard {
  const { projectRoot, paths, env } = input
  const settings = input.loaded.settings
  // Shell commands the policy auto-allows run confined whenever a backend exists (spec 000 "Sandbox").
  // The backend probe is not awaited here (issue 17): it starts once the first request is out, or
  // when a command or a shell decision needs it first, and says so once when there is none.
  const sandbox: DeferredSessionSandbox = new DeferredSessionSandbox(
    {
      settings,
      home: paths.home,
      env,
      ...(input.sandboxBackend ? { backend: input.sandboxBackend } : {}),
      // The engine's own folders and what Read deny rules name are masked in every confined view.
      engineDirs: [paths.configDir, paths.dataDir],
      deniedReadPaths: (roots): Promise<string[]> => gate.deniedReadPaths(roots),
    },
    (opened) => {
      if (opened.warning !== undefined) notice('warning', opened.warning, 'sandbox_unavailable')
    },
  )
  const processes = new ProcessScope()
  // Programs the engine starts itself (language servers, MCP stdio servers) run in the same view
  // as a write-confined command whenever a backend exists (issue 34).
  const confinement: ServerConfinerInput = {
    sandbox,
    projectRoot,
    home: paths.home,
    additionalDirectories: () => gate.additionalDirectories,
  }
  const gate: SessionGate = new SessionGate({
    projectRoot,
    home: paths.home,
    configDir: paths.configDir,
    settings,
    sandbox: () => sandbox.facts(),
    ruleLayers: ruleLayersOf(input.loaded.layers),
    trusted: input.trusted,
    onNotice: notice,
  })
  return { sandbox, gate, processes, confinement }
}
