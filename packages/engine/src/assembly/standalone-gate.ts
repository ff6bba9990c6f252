import type { SandboxBackend } from '@z-engine/host'
import type { Settings } from '@z-engine/protocol'
import { settingsGate } from '../gate/policy-gate.js'
import { openSessionSandbox, type SessionSandbox } from './session-sandbox.js'

/** What the CLI's out-of-session runs (`hooks test`, `commands expand`) decide and confine with. */
export interface StandaloneGateInput {
  settings: Settings
  layers: ReadonlyArray<{ name: string; file?: string; data: unknown }>
  projectRoot: string
  home: string
  /** The environment the backend is found on (PATH). */
  env: Readonly<Record<string, string | undefined>>
  /** The sandbox backend (default: detected on this machine's PATH). */
  backend?: SandboxBackend
  /** The engine's config and data folders: masked wherever a confined view would show them. */
  engineDirs?: readonly string[]
}

/** The sandbox a session would open and the gate over the same settings with its facts. */
export interface StandaloneGate {
  opened: SessionSandbox
  gate: ReturnType<typeof settingsGate>
}

/**
 * Opens the sandbox and the gate exactly as a session would, for work the CLI runs outside one;
 * the caller disposes `opened.sandbox`.
 */
export async function openStandaloneGate(input: StandaloneGateInput): Promise<StandaloneGate> {
  const opened = await openSessionSandbox({
    settings: input.settings,
    home: input.home,
    env: input.env,
    ...(input.backend ? { backend: input.backend } : {}),
    ...(input.engineDirs ? { engineDirs: input.engineDirs } : {}),
  })
  const gate = settingsGate({
    settings: input.settings,
    layers: input.layers,
    projectRoot: input.projectRoot,
    home: input.home,
    sandbox: opened.facts,
  })
  return { opened, gate }
}
