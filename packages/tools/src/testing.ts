import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { childEnvironment } from '@z-engine/host'
import { DEFAULT_TOOL_LIMITS, type ToolCtx, type ToolLimits } from './ctx.js'
import { createFileTracker } from './file-tracker.js'
import { createPathLocks } from './path-locks.js'
import type { Ports } from './ports.js'
import { createShellRunner } from './shell-runner.js'
import type { Tool } from './tool.js'
import type { ToolResult } from './tool-result.js'

/** Options of {@link makeTestCtx}. */
export interface TestCtxOptions {
  /** The project root; default: a fresh temp dir (removed by `cleanup`). */
  root?: string
  cwd?: string
  home?: string
  ports?: Ports
  vision?: boolean
  limits?: Partial<ToolLimits>
  additionalDirectories?: string[]
  env?: Record<string, string>
}

/** A real ToolCtx over temp dirs, recording what tools report, for tool tests. */
export interface TestCtx extends ToolCtx {
  /** Artifacts written through `spill`. */
  spilled: Array<{ hint: string; path: string; content: string }>
  /** Progress updates, in order. */
  progressUpdates: Array<{ message?: string; output?: string }>
  /** Removes the temp dirs this context created. */
  cleanup(): void
}

/**
 * A ToolCtx with real parts: a temp project root, a real FileTracker and PathLocks, the host shell
 * with the default environment policy, and artifacts spilled to a temp folder.
 */
export function makeTestCtx(options: TestCtxOptions = {}): TestCtx {
  const created: string[] = []
  const temp = (prefix: string): string => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
    created.push(dir)
    return dir
  }
  const root = options.root ?? temp('ze-tools-')
  const artifacts = temp('ze-artifacts-')
  const env = options.env ?? childEnvironment(process.env)
  let artifactCount = 0
  const ctx: TestCtx = {
    sessionId: 'test-session',
    agentId: 'main',
    toolUseId: 'toolu_test',
    projectRoot: root,
    cwd: options.cwd ?? root,
    home: options.home ?? root,
    additionalDirectories: options.additionalDirectories ?? [],
    setCwd(cwd) {
      ctx.cwd = cwd
    },
    fileTracker: createFileTracker(),
    pathLocks: createPathLocks(),
    progress(update) {
      ctx.progressUpdates.push(update)
    },
    async spill(content, hint) {
      artifactCount += 1
      const path = join(artifacts, `${artifactCount}-${hint.replace(/[^\w.-]+/g, '_')}.txt`)
      mkdirSync(artifacts, { recursive: true })
      writeFileSync(path, content)
      ctx.spilled.push({ hint, path, content })
      return path
    },
    limits: { ...DEFAULT_TOOL_LIMITS, ...options.limits },
    vision: options.vision ?? true,
    env,
    shell: createShellRunner({ env, killGraceMs: 500 }),
    ports: options.ports ?? {},
    spilled: [],
    progressUpdates: [],
    cleanup() {
      for (const dir of created) rmSync(dir, { recursive: true, force: true })
    },
  }
  return ctx
}

/** Calls a tool with a fresh signal (or the given one). */
export function callTool<Input>(
  tool: Tool<Input>,
  input: Input,
  ctx: ToolCtx,
  signal: AbortSignal = new AbortController().signal,
): Promise<ToolResult> {
  return tool.call(input, ctx, signal)
}

/** The text of a result's text blocks, or its error message. */
export function resultText(result: ToolResult): string {
  if (!result.ok) return result.error.message
  return result.output.content.map((block) => (block.type === 'text' ? block.text : '[image]')).join('\n')
}

export {
  agentResult,
  RecordingAgents,
  RecordingChecks,
  RecordingInteraction,
  RecordingLsp,
  RecordingMcp,
  RecordingSideModel,
  RecordingSkills,
} from './recording-ports.js'
