import { stat } from 'node:fs/promises'
import { planOutputBudget } from '@z-engine/context'
import type { CommandSandbox, ProcessScope } from '@z-engine/host'
import type { Settings } from '@z-engine/protocol'
import {
  createFileTracker,
  createPathLocks,
  createShellRunner,
  DEFAULT_TOOL_LIMITS,
  type FileTracker,
  type OutputBudget,
  type Ports,
  type ToolCtx,
  type ToolLimits,
} from '@z-engine/tools'
import { childEnvironmentFor } from '../workspace/settings/child-environment.js'

/** The semantic output budget every tool applies beneath its byte ceiling (spec 004). */
const outputBudget: OutputBudget = (text, kind) => planOutputBudget(text, kind)

/** Tool limits from settings. */
export function toolLimitsOf(settings: Settings): ToolLimits {
  return {
    ...DEFAULT_TOOL_LIMITS,
    bashDefaultTimeoutMs: settings.shell.default_timeout_ms,
    bashMaxTimeoutMs: settings.shell.max_timeout_ms,
  }
}

/** What every call's ToolCtx shares within a session. */
export interface ToolContextFactoryOptions {
  sessionId: string
  projectRoot: string
  home: string
  settings: Settings
  baseEnv: Readonly<Record<string, string | undefined>>
  vision: () => boolean
  additionalDirectories: () => readonly string[]
  spill: (content: string, hint: string) => Promise<string>
  ports: Ports
  /** Whether a deny rule forbids reading a path (Glob and Grep leave such files out). */
  isReadDenied?: (path: string) => boolean
  /** Confines Bash commands (absent: they run unconfined). */
  sandbox?: CommandSandbox
  /** The session whose close kills what Bash commands left running. */
  scope?: ProcessScope
}

/** Builds per-call ToolCtx objects; file trackers are per agent, path locks per session. */
export function createToolContextFactory(options: ToolContextFactoryOptions) {
  const env = childEnvironmentFor(options.baseEnv, options.settings)
  const shell = createShellRunner({
    env,
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
    ...(options.scope ? { scope: options.scope } : {}),
  })
  const pathLocks = createPathLocks()
  const trackers = new Map<string, FileTracker>()
  const limits = toolLimitsOf(options.settings)
  // What was already reported per path (mtime), so each outside change is reported once.
  const reported = new Map<string, number>()
  return {
    env,
    /** The shell every call's Bash uses (checks at the stop boundary run through it too). */
    shell,
    /** Files the agent read that changed on disk since (edited by the user or another process). */
    async changedSinceRead(agentId: string): Promise<string[]> {
      const tracker = trackers.get(agentId)
      if (!tracker) return []
      const changed: string[] = []
      for (const path of tracker.paths()) {
        const seen = tracker.lastRead(path)
        if (!seen) continue
        const now = await stat(path).catch(() => undefined)
        const mtime = now?.mtimeMs ?? -1
        if (now && now.mtimeMs === seen.mtimeMs && now.size === seen.size) continue
        if (reported.get(path) === mtime) continue
        reported.set(path, mtime)
        changed.push(path)
      }
      return changed
    },
    build(params: {
      agentId: string
      toolUseId: string
      cwd: () => string
      setCwd: (cwd: string) => void
      progress: ToolCtx['progress']
    }): ToolCtx {
      let tracker = trackers.get(params.agentId)
      if (!tracker) {
        tracker = createFileTracker()
        trackers.set(params.agentId, tracker)
      }
      return {
        sessionId: options.sessionId,
        agentId: params.agentId,
        toolUseId: params.toolUseId,
        projectRoot: options.projectRoot,
        cwd: params.cwd(),
        home: options.home,
        additionalDirectories: [...options.additionalDirectories()],
        setCwd: params.setCwd,
        fileTracker: tracker,
        pathLocks,
        progress: params.progress,
        spill: options.spill,
        limits,
        outputBudget,
        vision: options.vision(),
        env,
        shell,
        ports: options.ports,
        ...(options.isReadDenied ? { isReadDenied: options.isReadDenied } : {}),
      }
    },
  }
}
