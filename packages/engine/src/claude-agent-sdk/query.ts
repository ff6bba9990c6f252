import { randomUUID } from 'node:crypto'
import { realpath } from 'node:fs/promises'
import { normalizeMode } from '@z-engine/policy'
import { Engine, viewOf } from '../api/engine.js'
import { resolveEnginePaths } from '../api/engine-paths.js'
import type { Session } from '../session/session-types.js'
import type { TurnHandle } from '../session/turn-handle.js'
import { bareModel, MessageTranslator } from './sdk-messages.js'
import { optionWarnings } from './sdk-option-support.js'
import {
  canUseToolOf,
  hooksOf,
  inProcessServers,
  modelRef,
  permissionMode,
  settingsOf,
} from './sdk-options.js'
import type { Options, PermissionMode, Query, SDKMessage, SDKUserMessage } from './sdk-types.js'

/**
 * The Claude Agent SDK's `query()`, running the engine in this process: opens a session in `cwd`
 * (resumed or forked when asked), yields the init message, then each prompt's assistant messages,
 * tool results and result message, and shuts the engine down when the prompts end.
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
  const interrupt = () => current?.cancel()

  async function* messages(): AsyncGenerator<SDKMessage, void> {
    const mode = permissionMode(options.permissionMode)
    const env = options.env ?? process.env
    for (const warning of optionWarnings(options)) {
      if (options.stderr !== undefined) options.stderr(`${warning}\n`)
      else process.emitWarning(warning, { code: 'Z_ENGINE_SDK_OPTION' })
    }
    const engine = await Engine.create({
      env,
      // The Claude Agent SDK reads no filesystem settings unless `settingSources` names them; sessions
      // still go to the user's data folder, so a later query can resume them.
      isolated: !(options.settingSources ?? []).includes('user'),
      dataDir: resolveEnginePaths({}, env).dataDir,
      settings: settingsOf(options),
      hooks: hooksOf(options),
      canUseTool: canUseToolOf(options, interrupt),
    })
    try {
      const systemPrompt = options.systemPrompt
      const projectRoot = options.cwd ?? process.cwd()
      const resume =
        options.resume ?? (options.continue === true ? await latestSession(engine, projectRoot) : undefined)
      session = await engine.openSession({
        projectRoot,
        ...(options.model !== undefined ? { model: modelRef(options.model) } : {}),
        ...(mode !== undefined ? { mode } : {}),
        ...(resume !== undefined
          ? options.forkSession === true
            ? { fork: { sessionId: resume } }
            : { resume }
          : {}),
        mcpServers: inProcessServers(options),
        waitForMcp: true,
        ...(systemPrompt === undefined
          ? {}
          : typeof systemPrompt === 'string'
            ? { systemPrompt }
            : systemPrompt.append !== undefined
              ? { systemPrompt: { append: systemPrompt.append } }
              : {}),
      })
      const view = viewOf(session)
      yield {
        type: 'system',
        subtype: 'init',
        uuid: randomUUID(),
        session_id: session.id,
        apiKeySource: env.ANTHROPIC_API_KEY !== undefined ? 'user' : 'none',
        cwd: session.projectRoot,
        tools: view.toolNames(),
        mcp_servers: view.mcpServers().map((server) => ({
          name: server.name,
          status: server.status === 'ready' ? 'connected' : server.status,
        })),
        model: bareModel(session.model),
        permissionMode: mode ?? (session.mode === 'bypass' ? 'bypassPermissions' : session.mode),
        slash_commands: [],
        output_style: 'default',
      }
      const abort = options.abortController?.signal
      const onAbort = () => interrupt()
      abort?.addEventListener('abort', onAbort)
      try {
        for await (const text of prompts(prompt)) {
          if (abort?.aborted) break
          const translator = new MessageTranslator({
            sessionId: session.id,
            model: session.model,
            includePartialMessages: options.includePartialMessages === true,
          })
          current = session.submit(text)
          for await (const envelope of current) yield* translator.translate(envelope)
          current = undefined
        }
      } finally {
        abort?.removeEventListener('abort', onAbort)
      }
    } finally {
      await engine.shutdown()
    }
  }

  return Object.assign(messages(), {
    interrupt: async () => interrupt(),
    setPermissionMode: async (mode: PermissionMode) => {
      const engineMode = normalizeMode(mode)
      if (engineMode === undefined) throw new Error(`Unknown permission mode '${mode}'.`)
      session?.send({ type: 'setMode', mode: engineMode })
    },
  })
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
