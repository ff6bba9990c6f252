import { ProcessScope } from '@z-engine/host'
import { type RunHooksOptions, runHooks } from '../workspace/hooks/run-hooks.js'
import type { HookEvent, HookInput, HookOutcome, HooksConfig } from '../workspace/hooks/types.js'
import { hookSandboxRequest } from './hook-confinement.js'
import { openStandaloneGate, type StandaloneGateInput } from './standalone-gate.js'

/** A hook event's outcome outside a session, and the warning when nothing could confine it. */
export interface StandaloneHooksResult {
  outcome: HookOutcome
  /** Set when no sandbox backend exists (the hooks ran unconfined, as they would in a session). */
  warning?: string
}

/**
 * Runs one event's hooks outside a session (`z-engine hooks test`) exactly as a session runs them
 * (issue 34): each hook confined whenever a backend exists (hook-confinement.ts: the project
 * writable, the home empty but for `read_paths`/`write_paths`, the scripts it names and a plugin's
 * folder shown), with the same masks (deny-ruled paths, the engine's folders), in a process scope
 * whose leftovers (`server &`) are killed before this returns.
 */
export async function runHooksStandalone<E extends HookEvent>(
  event: E,
  input: HookInput<E>,
  config: HooksConfig,
  options: StandaloneGateInput & {
    /** What the hooks get: the allowlisted environment a session's hooks get. */
    hookEnv: Record<string, string>
    call?: RunHooksOptions['call']
  },
): Promise<StandaloneHooksResult> {
  const { opened, gate } = await openStandaloneGate(options)
  const additionalDirectories = options.settings.permissions.additional_directories
  const processes = new ProcessScope()
  try {
    const outcome = await runHooks(event, input, config, {
      projectDir: options.projectRoot,
      env: options.hookEnv,
      ...(options.call ? { call: options.call } : {}),
      scope: processes,
      sandboxFor: async (hook, hookEvent) => {
        const request = hookSandboxRequest(
          hook,
          { projectRoot: options.projectRoot, home: options.home, additionalDirectories },
          hookEvent,
        )
        // What `Read(...)` deny rules name is masked in the view, as in a session.
        const masked = opened.sandbox.available
          ? await gate.deniedReadPaths([request.root, ...request.additionalDirectories])
          : []
        return opened.sandbox.prepare(masked.length > 0 ? { ...request, masked } : request)
      },
    })
    return { outcome, ...(opened.warning !== undefined ? { warning: opened.warning } : {}) }
  } finally {
    await processes.killAll()
    await opened.sandbox.dispose()
  }
}
