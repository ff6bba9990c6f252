import { realpath } from 'node:fs/promises'
import { normalizeMode } from '@z-engine/policy'
import { Engine, viewOf } from '../api/engine.js'
import type { EngineOptions, OpenSessionOptions } from '../api/engine-options.js'
import { MODEL_ALIASES } from '../model/aliases.js'
import type { Session } from '../session/session-types.js'
import type { TurnHandle } from '../session/turn-handle.js'
import { AsyncQueue } from '../util/async-queue.js'
import { resolveEnginePaths } from '../workspace/engine-paths.js'
import { AbortError, refusedMethods } from './query-controls.js'
import { engineAgentsOf } from './sdk-agents.js'
import { sdkInitMessage, sdkStatus } from './sdk-init.js'
import type { McpServerStatus, ModelInfo, Query, SDKMessage, SDKUserMessage } from './sdk-message-types.js'
import { MessageTranslator } from './sdk-messages.js'
import { optionWarnings, refusedOptions } from './sdk-option-support.js'
import {
  canUseToolOf,
  engineMode,
  hookEventsThatNeverFire,
  hooksOf,
  inProcessServers,
  modelRef,
  permissionMode,
  ruleText,
  settingsOf,
} from './sdk-options.js'
import type { Options, PermissionMode, PermissionUpdate } from './sdk-types.js'

/**
 * The Claude Agent SDK's `query()`, running the engine in this process: opens a session in `cwd`
 * (resumed or forked when asked), yields the init message, then each prompt's assistant messages,
 * tool results and result message, and shuts the engine down when the prompts end (or `close()`).
 * An aborted `abortController` ends the iteration with `AbortError`.
 */
export function query({
  prompt,
  options = {},
}: {
  prompt: string | AsyncIterable<SDKUserMessage>
  options?: Options
}): Query {
  let session: Session | undefined
  let current: TurnHandle | undefined
  let closed = false
  let mode = permissionMode(options.permissionMode)
  const interrupt = () => current?.cancel()
  const report = (line: string) => {
    if (options.stderr !== undefined) options.stderr(`${line}\n`)
    else process.emitWarning(line, { code: 'Z_ENGINE_SDK_OPTION' })
  }
  // Every prompt, from `prompt` and from `streamInput`, in arrival order; closed when all have ended.
  const inputs = new AsyncQueue<string>()
  let sources = 0
  let inputError: unknown
  const pump = (source: string | AsyncIterable<SDKUserMessage>) => {
    sources += 1
    return (async () => {
      try {
        for await (const text of prompts(source)) {
          if (closed) break
          inputs.push(text)
        }
      } catch (error) {
        inputError ??= error
      } finally {
        sources -= 1
        if (sources === 0) inputs.close()
      }
    })()
  }
  let opened: () => void = () => {}
  const sessionOpened = new Promise<void>((resolve) => {
    opened = resolve
  })

  const applyPermissions = (updates: PermissionUpdate[]) => applyPermissionUpdates(updates, setMode, report)
  const setMode = async (next: PermissionMode) => {
    mode = permissionMode(next)
    const engine = normalizeMode(engineMode(next))
    if (engine !== undefined) session?.send({ type: 'setMode', mode: engine })
  }

  async function* messages(): AsyncGenerator<SDKMessage, void> {
    const refused = refusedOptions(options)
    if (refused !== undefined) throw refused
    const agents = engineAgentsOf(options)
    for (const warning of optionWarnings(options)) report(warning)
    const silent = hookEventsThatNeverFire(options)
    for (const event of silent) report(`options.hooks.${event}: hooks for this event never fire here.`)
    const env = options.env ?? process.env
    const engine = await Engine.create(
      engineOptionsOf(options, env, {
        mode: () => mode,
        onInterrupt: interrupt,
        onPermissions: applyPermissions,
      }),
    )
    const abort = options.abortController?.signal
    const onAbort = () => {
      interrupt()
      inputs.close()
    }
    abort?.addEventListener('abort', onAbort)
    try {
      if (abort?.aborted) throw new AbortError('The query was aborted before it started.')
      const projectRoot = options.cwd ?? process.cwd()
      const resume =
        options.resume ?? (options.continue === true ? await latestSession(engine, projectRoot) : undefined)
      session = await engine.openSession(openSessionOptionsOf(options, projectRoot, mode, resume, agents))
      opened()
      yield await sdkInitMessage(session, { env, ...(mode !== undefined ? { permissionMode: mode } : {}) })
      void pump(prompt)
      for await (const text of inputs) {
        if (abort?.aborted || closed) break
        const translator = new MessageTranslator({
          sessionId: session.id,
          model: session.model,
          includePartialMessages: options.includePartialMessages === true,
        })
        current = session.submit(text)
        for await (const envelope of current) yield* translator.translate(envelope)
        current = undefined
      }
      if (abort?.aborted) throw new AbortError('The query was aborted.')
      if (inputError !== undefined) throw inputError
    } finally {
      abort?.removeEventListener('abort', onAbort)
      opened()
      await engine.shutdown()
    }
  }

  const generator = messages()
  return Object.assign(generator, refusedMethods(), {
    interrupt: async () => {
      interrupt()
      return undefined
    },
    setPermissionMode: async (next: PermissionMode) => {
      await setMode(next)
      return undefined
    },
    setModel: async (model?: string) => {
      await sessionOpened
      session?.send({ type: 'setModel', model: modelRef(model ?? 'default') })
    },
    supportedModels: async (): Promise<ModelInfo[]> =>
      MODEL_ALIASES.map((alias) => ({
        value: alias.alias,
        resolvedModel: alias.model,
        displayName: alias.alias.charAt(0).toUpperCase() + alias.alias.slice(1),
        description: alias.description,
      })),
    mcpServerStatus: async (): Promise<McpServerStatus[]> => {
      await sessionOpened
      if (session === undefined) return []
      return viewOf(session)
        .mcpServers()
        .map((server) => ({
          name: server.name,
          status: sdkStatus(server),
          ...(server.lastError !== undefined ? { error: server.lastError } : {}),
        }))
    },
    streamInput: async (stream: AsyncIterable<SDKUserMessage>) => {
      if (closed || inputs.closed) throw new Error('streamInput: the query has ended; start a new query.')
      await pump(stream)
    },
    close: () => {
      closed = true
      interrupt()
      inputs.close()
    },
  }) as Query
}

/**
 * `canUseTool`'s `updatedPermissions`: a session mode change applies; rules and directories are
 * not applied here, and `report` says so (they belong in allowedTools or the settings files).
 */
function applyPermissionUpdates(
  updates: PermissionUpdate[],
  setMode: (mode: PermissionMode) => Promise<void>,
  report: (line: string) => void,
): void {
  for (const update of updates) {
    if (update.type === 'setMode' && update.destination === 'session') {
      void setMode(update.mode)
      continue
    }
    const what =
      update.type === 'setMode'
        ? `setMode (${update.destination})`
        : `${update.type} ${'rules' in update ? update.rules.map(ruleText).join(', ') : update.directories.join(', ')} (${update.destination})`
    report(
      `canUseTool's updatedPermissions ${what} is not applied by @z-engine/engine/claude-agent-sdk: list the rules in allowedTools or the settings files.`,
    )
  }
}

/** The engine a query runs on: the SDK's options as settings, hooks and the permission callback. */
function engineOptionsOf(
  options: Options,
  env: NonNullable<EngineOptions['env']>,
  control: Parameters<typeof canUseToolOf>[1],
): EngineOptions {
  return {
    env,
    // The Claude Agent SDK reads no filesystem settings unless `settingSources` names them; sessions
    // still go to the user's data folder, so a later query can resume them.
    isolated: !(options.settingSources ?? []).includes('user'),
    dataDir: resolveEnginePaths({}, env).dataDir,
    settings: settingsOf(options),
    hooks: hooksOf(options),
    canUseTool: canUseToolOf(options, control),
  }
}

/** The session a query opens (or resumes, or forks): model, mode, title, servers, agents, prompt. */
function openSessionOptionsOf(
  options: Options,
  projectRoot: string,
  mode: PermissionMode | undefined,
  resume: string | undefined,
  agents: ReturnType<typeof engineAgentsOf>,
): OpenSessionOptions {
  const systemPrompt = options.systemPrompt
  return {
    projectRoot,
    ...(options.model !== undefined ? { model: modelRef(options.model) } : {}),
    ...(mode !== undefined ? { mode: engineMode(mode) } : {}),
    ...(options.title !== undefined ? { title: options.title } : {}),
    ...(resume !== undefined
      ? options.forkSession === true
        ? { fork: { sessionId: resume } }
        : { resume }
      : {}),
    mcpServers: inProcessServers(options),
    waitForMcp: true,
    ...(agents !== undefined ? { agents } : {}),
    ...(systemPrompt === undefined
      ? {}
      : typeof systemPrompt === 'string'
        ? { systemPrompt }
        : systemPrompt.append !== undefined
          ? { systemPrompt: { append: systemPrompt.append } }
          : {}),
  }
}

/** The id of the project's most recently active session, if it has one (`options.continue`). */
async function latestSession(engine: Engine, projectRoot: string): Promise<string | undefined> {
  const root = await realpath(projectRoot).catch(() => projectRoot)
  const [latest] = await engine.listSessions(root)
  return latest?.sessionId
}

/** The prompt texts: one string, or each streamed user message's text. */
async function* prompts(prompt: string | AsyncIterable<SDKUserMessage>): AsyncGenerator<string> {
  if (typeof prompt === 'string') {
    yield prompt
    return
  }
  for await (const message of prompt) {
    const content = message.message.content
    yield typeof content === 'string'
      ? content
      : content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n')
  }
}
