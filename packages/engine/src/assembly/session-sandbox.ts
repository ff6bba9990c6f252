import { detectSandboxBackend, Sandbox, type SandboxBackend } from '@z-engine/host'
import type { SandboxFacts } from '@z-engine/policy'
import type { Settings } from '@z-engine/protocol'

/** A session's sandbox, what the policy is told about it, and the warning when there is none. */
export interface SessionSandbox {
  sandbox: Sandbox
  facts: SandboxFacts
  /** Set when no backend exists: commands run unconfined and keep asking (said once per session). */
  warning?: string
}

/**
 * Opens a session's sandbox (spec 000 "Sandbox"): detects the backend (unless the embedder passed
 * one), creates the private temp folder, and derives the policy's facts. With a backend, commands
 * the policy auto-allows run confined whatever `[shell.sandbox] enabled` says; `auto_allow` lets
 * in-bounds commands run without asking.
 */
export async function openSessionSandbox(input: {
  settings: Settings
  home: string
  env: Readonly<Record<string, string | undefined>>
  backend?: SandboxBackend
}): Promise<SessionSandbox> {
  const backend = input.backend ?? (await detectSandboxBackend({ path: input.env.PATH ?? '' }))
  const config = input.settings.shell.sandbox
  const sandbox = await Sandbox.create({
    backend,
    settings: { enabled: config.enabled, allowNetwork: config.allow_network },
    home: input.home,
    env: input.env,
  })
  const facts: SandboxFacts = {
    active: sandbox.available,
    autoAllow: config.auto_allow,
    writableRoots: await sandbox.writableRoots(),
  }
  if (backend.kind !== 'none') return { sandbox, facts }
  return {
    sandbox,
    facts,
    warning: `No sandbox backend: ${backend.reason}. Shell commands run unconfined (proven read-only ones too) and sandbox auto_allow does not apply, so commands keep asking. To confine them, ${backend.install}; \`z-engine doctor\` checks it.`,
  }
}

/** This machine's sandbox backend found on `path` (a PATH value), proven to start (for `doctor`). */
export function detectShellSandbox(path: string): Promise<SandboxBackend> {
  return detectSandboxBackend({ path })
}
