import { Engine } from '@z-engine/engine'
import { EXIT, UsageError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { projectPlace } from '../cwd.js'
import { inputLineCap, readPrompts } from '../exec/read-prompts.js'
import { runExec } from '../exec/run-exec.js'
import { streamJsonWriter } from '../exec/stream-json-writer.js'
import type { ExecWriter } from '../exec/writer.js'
import { type PrintFlags, parsePrintFlags } from '../print/claude-flags.js'
import { claudeWriter } from '../print/claude-writer.js'
import { printSettingsLayer } from '../print/print-settings.js'
import { listSessionRows, resumeWithoutIdMessage } from '../sessions/session-listing.js'

const HELP = `Usage: z-engine -p [options] [prompt]

Claude Code's headless mode (claude -p): one turn, or one per stdin line with --input-format
stream-json, printed in Claude Code's shapes. The prompt comes from the arguments or stdin; with
both, piped text follows the prompt. docs/cli.md "Coming from Claude Code" compares every flag.

Options:
  --output-format text|json|stream-json|z-engine-events
                                      text: the result; json: the result object (--verbose: every
                                      message as one array); stream-json: Claude Code's lines
                                      (system/init, assistant, user, result); z-engine-events: the
                                      engine's own lines (docs/stream-json.md)
  --input-format text|stream-json     stream-json: {"type":"user","message":{…}} per stdin line
  --verbose                           json: every message (stream-json always prints them)
  --include-partial-messages          stream_event lines as the answer streams
  --model MODEL                       sonnet, opus, haiku, opusplan, a model id or provider/model
  --fallback-model MODEL              when the model is still overloaded (529) after its retries,
                                      the turn continues on this one (a warning says so)
  --permission-mode MODE              default (manual), acceptEdits, plan, bypassPermissions, dontAsk
  --dangerously-skip-permissions      bypassPermissions
  --allowedTools, --allowed-tools RULES…       allow rules ("Read" "Bash(git log:*)"; commas too)
  --disallowedTools, --disallowed-tools RULES…  deny rules
  --system-prompt TEXT                replaces the base system prompt
  --append-system-prompt TEXT         follows the system prompt
  --max-turns N                       at most N model rounds (error_max_turns, exit code 3)
  --mcp-config FILE|JSON…             MCP servers in .mcp.json's format
  --strict-mcp-config                 only the servers of --mcp-config
  --add-dir DIR…                      more folders the agent may work in
  --settings FILE|JSON                a Claude Code settings file (permissions, hooks)
  -c, --continue                      continue this project's latest session
  -r, --resume [ID]                   continue a session (without an id: list them)
  --session-id UUID                   the new session's id
  --fork-session                      with -r/-c: continue a copy under a new id
  --cwd DIR                           the project folder (z-engine's addition)
  --trust                             trust the project folder first (z-engine's addition)

Not supported (refused by name): --permission-mode auto.
Exit codes: 0 done, 1 failed, 2 usage error, 3 budget exhausted, 4 every change denied,
5 incomplete, 130 interrupted.
`

/** `z-engine -p`: Claude Code's headless command line and output shapes over `runExec`. */
export async function main(io: CommandIo): Promise<number> {
  const flags = parsePrintFlags(io.argv)
  if (flags.help) {
    io.stdout.write(HELP)
    return EXIT.ok
  }
  const { root: projectRoot, cwd } = await projectPlace(io.cwd, flags.cwd, io.env.HOME)
  if (flags.session.kind === 'resumeList') {
    const rows = await listSessionRows(await Engine.create({ env: io.env }), projectRoot)
    throw new UsageError(resumeWithoutIdMessage(rows, 'z-engine -p --resume', projectRoot))
  }
  const settings = await printSettingsLayer(flags, io.cwd, async () => {
    const loaded = await (await Engine.create({ env: io.env })).settings(projectRoot)
    return Object.keys(loaded.settings.mcp.servers)
  })
  const maxLineBytes = flags.inputFormat === 'stream-json' ? await inputLineCap(io, projectRoot) : 0
  const prompts = await readPrompts(io, flags.prompt, flags.inputFormat, maxLineBytes)
  const systemPrompt = systemPromptOf(flags)
  return runExec(
    {
      projectRoot,
      cwd,
      explicitRoot: flags.cwd !== undefined,
      prompts,
      env: io.env,
      ...(flags.mode !== undefined ? { mode: flags.mode } : {}),
      ...(flags.model !== undefined ? { model: flags.model } : {}),
      ...(flags.maxTurns !== undefined ? { maxTurns: flags.maxTurns } : {}),
      ...(flags.trust ? { trust: true } : {}),
      ...(settings !== undefined ? { settings } : {}),
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      ...(flags.sessionId !== undefined ? { sessionId: flags.sessionId } : {}),
      session:
        flags.session.kind === 'resume'
          ? flags.session.fork
            ? { kind: 'fork', id: flags.session.id }
            : { kind: 'resume', id: flags.session.id }
          : flags.session.kind === 'continue'
            ? { kind: 'continue', fork: flags.session.fork }
            : { kind: 'new' },
    },
    writerFor(flags, io),
  )
}

/** `--system-prompt` replaces, `--append-system-prompt` follows; both: the one, then the other. */
function systemPromptOf(flags: PrintFlags): string | { append: string } | undefined {
  if (flags.systemPrompt !== undefined)
    return flags.appendSystemPrompt !== undefined
      ? `${flags.systemPrompt}\n\n${flags.appendSystemPrompt}`
      : flags.systemPrompt
  return flags.appendSystemPrompt !== undefined ? { append: flags.appendSystemPrompt } : undefined
}

function writerFor(flags: PrintFlags, io: CommandIo): ExecWriter {
  switch (flags.outputFormat) {
    case 'z-engine-events':
      return streamJsonWriter(io)
    case 'text':
    case 'json':
    case 'stream-json':
      return claudeWriter(io, {
        format: flags.outputFormat,
        verbose: flags.verbose,
        includePartialMessages: flags.includePartialMessages,
        env: io.env,
        ...(flags.modeName !== undefined ? { permissionMode: flags.modeName } : {}),
      })
    default: {
      const unreachable: never = flags.outputFormat
      return unreachable
    }
  }
}
