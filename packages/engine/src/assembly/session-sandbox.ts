import {
  type CommandSandbox,
  detectSandboxBackend,
  type PreparedSandbox,
  Sandbox,
  type SandboxBackend,
  type SandboxRequest,
} from '@z-engine/host'
import type { SandboxFacts } from '@z-engine/policy'
import type { Settings } from '@z-engine/protocol'

/** A session's sandbox, what the policy is told about it, and the warning when there is none. */
export interface SessionSandbox {
  sandbox: Sandbox
  facts: SandboxFacts
  /** Set when no backend exists: commands run unconfined and keep asking (said once per session). */
  warning?: string
}

/** What opening a session's sandbox needs. */
export interface SessionSandboxInput {
  settings: Settings
  home: string
  env: Readonly<Record<string, string | undefined>>
  backend?: SandboxBackend
  /** The engine's config and data folders: masked wherever a confined view would show them. */
  engineDirs?: readonly string[]
  /**
   * The paths `Read(...)` deny rules name inside a request's folders: masked in its view. Asked
   * for each confined command (files come and go).
   */
  deniedReadPaths?: (roots: readonly string[]) => Promise<string[]>
}

/**
 * Opens a session's sandbox (spec 000 "Sandbox"): detects the backend (unless the embedder passed
 * one), creates the private temp folder, and derives the policy's facts. With a backend, commands
 * the policy auto-allows run confined whatever `[shell.sandbox] enabled` says; `auto_allow` lets
 * in-bounds commands run without asking.
 */
export async function openSessionSandbox(input: SessionSandboxInput): Promise<SessionSandbox> {
  const backend = input.backend ?? (await detectSandboxBackend({ path: input.env.PATH ?? '' }))
  const config = input.settings.shell.sandbox
  const sandbox = await Sandbox.create({
    backend,
    settings: {
      enabled: config.enabled,
      allowNetwork: config.allow_network,
      readPaths: config.read_paths,
      writePaths: config.write_paths,
    },
    home: input.home,
    env: input.env,
    ...(input.engineDirs ? { engineDirs: input.engineDirs } : {}),
  })
  const facts: SandboxFacts = {
    active: sandbox.available,
    autoAllow: config.auto_allow,
    writableRoots: await sandbox.writableRoots(),
    excludedCommands: config.excluded_commands,
  }
  if (backend.kind !== 'none') return { sandbox, facts }
  return { sandbox, facts, warning: noBackendWarning(backend.reason, backend.install) }
}

function noBackendWarning(reason: string, install: string): string {
  return `No sandbox backend: ${reason}. Shell commands run unconfined (proven read-only ones too) and sandbox auto_allow does not apply, so commands keep asking. To confine them, ${install}; \`z-engine doctor\` checks it.`
}

/**
 * A session's sandbox opened on first need (issue 17): the probe (a confined `true`) and its pipes
 * cost main-thread time that nothing before the first model request needs, so the session starts it
 * once that request is out (`start`), or earlier when a command or a decision needs its answer.
 * `prepare` and `opened` wait for it; `dispose` removes what it made, if anything.
 */
export class DeferredSessionSandbox implements CommandSandbox {
  readonly #input: SessionSandboxInput
  readonly #onOpened: (opened: SessionSandbox) => void
  #opening: Promise<SessionSandbox> | undefined

  constructor(input: SessionSandboxInput, onOpened: (opened: SessionSandbox) => void = () => {}) {
    this.#input = input
    this.#onOpened = onOpened
  }

  /** Starts the probe if it has not started; resolves with the opened sandbox. */
  opened(): Promise<SessionSandbox> {
    this.#opening ??= openOrExplain(this.#input).then((opened) => {
      this.#onOpened(opened)
      return opened
    })
    return this.#opening
  }

  /** The policy's facts, once the probe has answered. */
  async facts(): Promise<SandboxFacts> {
    return (await this.opened()).facts
  }

  /** Plans one command's confinement (waits for the probe), masking what deny rules name. */
  async prepare(request: SandboxRequest): Promise<PreparedSandbox | undefined> {
    const { sandbox } = await this.opened()
    if (!sandbox.available) return sandbox.prepare(request)
    const denied = this.#input.deniedReadPaths
    const masked = denied ? await denied([request.root, ...request.additionalDirectories]) : []
    return sandbox.prepare(
      masked.length > 0 ? { ...request, masked: [...(request.masked ?? []), ...masked] } : request,
    )
  }

  /** Removes the private temp folder, if the sandbox was opened (session close). */
  async dispose(): Promise<void> {
    if (this.#opening === undefined) return
    await (await this.#opening).sandbox.dispose()
  }
}

/**
 * Opens the sandbox; a failure to create its temp folder is said like a missing backend (commands
 * run unconfined and keep asking) rather than failing the turn that first needed it.
 */
async function openOrExplain(input: SessionSandboxInput): Promise<SessionSandbox> {
  try {
    return await openSessionSandbox(input)
  } catch (error) {
    const reason = `its temp folder could not be created (${error instanceof Error ? error.message : String(error)})`
    const backend: SandboxBackend = {
      kind: 'none',
      reason,
      install: 'check that the temp folder is writable',
    }
    const sandbox = await Sandbox.create({
      backend,
      settings: { enabled: false, allowNetwork: false },
      home: input.home,
      env: input.env,
    })
    return {
      sandbox,
      facts: {
        active: false,
        autoAllow: input.settings.shell.sandbox.auto_allow,
        writableRoots: [],
        excludedCommands: input.settings.shell.sandbox.excluded_commands,
      },
      warning: noBackendWarning(reason, backend.install),
    }
  }
}

/** This machine's sandbox backend found on `path` (a PATH value), proven to start (for `doctor`). */
export function detectShellSandbox(path: string): Promise<SandboxBackend> {
  return detectSandboxBackend({ path })
}
