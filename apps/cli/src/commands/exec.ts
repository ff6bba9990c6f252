import { Engine } from '@z-engine/engine'
import { allowBareFlag, oneOf, parseCommandArgs } from '../args.js'
import { EXIT, UsageError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { projectPlace } from '../cwd.js'
import { jsonWriter } from '../exec/json-writer.js'
import { INPUT_FORMATS, inputLineCap, readPrompts } from '../exec/read-prompts.js'
import { type ExecPlan, runExec } from '../exec/run-exec.js'
import { streamJsonWriter } from '../exec/stream-json-writer.js'
import { textWriter } from '../exec/text-writer.js'
import type { ExecWriter } from '../exec/writer.js'
import { parseModeFlag } from '../mode-flag.js'
import { listSessionRows, resumeWithoutIdMessage } from '../sessions/session-listing.js'

const HELP = `Usage: z-engine exec [options] [prompt]

Runs one turn without a terminal UI. The prompt comes from the arguments, or from stdin when
stdin is not a terminal or the prompt is '-'. With both, text piped in (a pipe or a redirected
file) follows the prompt: echo "$LOG" | z-engine exec "summarize this log".

Options:
  --output-format text|json|stream-json   text streams the answer to stdout (notices on stderr);
                                          json prints one object at the end; stream-json prints
                                          one JSON line per event (docs/stream-json.md)
  --input-format text|stream-json         stream-json: one turn per stdin line until EOF, each
                                          {"type":"user","message":{"role":"user","content":…}}
                                          (Claude Code's), {"type":"prompt","text":…} or
                                          {"type":"message","content":…}
  --permission-mode MODE                  default, acceptEdits, plan, bypass (bypassPermissions)
  --model REF                             anthropic/…, openai/…, openai-chat/…, openrouter/…,
                                          a catalog id, or scripted:<file> (demos and tests)
  --resume ID                             continue a stored session (a unique id prefix is
                                          enough; without an id, lists this project's)
  --continue                              continue this project's latest session
  --fork ID                               continue a copy of a stored session
  --cwd DIR                               the project folder (default: the current folder)
  --max-turns N                           stop after N model rounds (exit code 3)
  --trust                                 trust the project folder first (recorded, as
                                          'z-engine trust' does), so its project settings apply
  -h, --help                              show this help

Approvals cannot be asked headless: a call the mode or a rule does not allow is denied, and the
model is told why; json and stream-json results list them as permission_denials. A turn that
changed nothing because every change it tried was denied is an error (exit code 4).
Exit codes: 0 done, 1 failed, 2 usage error, 3 budget exhausted, 4 every change denied,
130 interrupted.
`

const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const

/** `z-engine exec`: headless turns (one, or one per stream-json input line), written as text, one JSON object, or stream-json lines. */
export async function main(io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(allowBareFlag(io.argv, '--resume'), {
    'output-format': { type: 'string' },
    'input-format': { type: 'string' },
    'permission-mode': { type: 'string' },
    model: { type: 'string' },
    resume: { type: 'string' },
    continue: { type: 'boolean' },
    fork: { type: 'string' },
    cwd: { type: 'string' },
    'max-turns': { type: 'string' },
    trust: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout.write(HELP)
    return EXIT.ok
  }
  const outputFormat = oneOf('--output-format', values['output-format'], OUTPUT_FORMATS, 'text')
  const inputFormat = oneOf('--input-format', values['input-format'], INPUT_FORMATS, 'text')
  const mode: ExecPlan['mode'] = parseModeFlag(values['permission-mode'])
  const chosen = [values.resume !== undefined, values.continue === true, values.fork !== undefined]
  if (chosen.filter(Boolean).length > 1)
    throw new UsageError('Use only one of --resume, --continue and --fork.')
  let maxTurns: number | undefined
  if (values['max-turns'] !== undefined) {
    maxTurns = Number(values['max-turns'])
    if (!Number.isInteger(maxTurns) || maxTurns < 1)
      throw new UsageError(`--max-turns takes a whole number of rounds ≥ 1 (got '${values['max-turns']}').`)
  }
  const { root: projectRoot, cwd } = await projectPlace(io.cwd, values.cwd, io.env.HOME)
  if (values.resume === '') {
    // Headless: no picker. Say which sessions there are and how to name one.
    const rows = await listSessionRows(await Engine.create({ env: io.env }), projectRoot)
    throw new UsageError(resumeWithoutIdMessage(rows, 'z-engine exec --resume', projectRoot))
  }
  const maxLineBytes = inputFormat === 'stream-json' ? await inputLineCap(io, projectRoot) : 0
  const prompts = await readPrompts(io, positionals, inputFormat, maxLineBytes)

  const writer = writerFor(outputFormat, io)
  return runExec(
    {
      projectRoot,
      cwd,
      explicitRoot: values.cwd !== undefined,
      prompts,
      env: io.env,
      ...(mode !== undefined ? { mode } : {}),
      ...(values.model !== undefined ? { model: values.model } : {}),
      ...(maxTurns !== undefined ? { maxTurns } : {}),
      ...(values.trust ? { trust: true } : {}),
      session:
        values.resume !== undefined
          ? { kind: 'resume', id: values.resume }
          : values.fork !== undefined
            ? { kind: 'fork', id: values.fork }
            : values.continue
              ? { kind: 'continue' }
              : { kind: 'new' },
    },
    writer,
  )
}

function writerFor(format: (typeof OUTPUT_FORMATS)[number], io: CommandIo): ExecWriter {
  switch (format) {
    case 'text':
      return textWriter(io)
    case 'json':
      return jsonWriter(io)
    case 'stream-json':
      return streamJsonWriter(io)
    default: {
      const unreachable: never = format
      return unreachable
    }
  }
}
