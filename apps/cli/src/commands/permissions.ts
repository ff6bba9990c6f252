import { createInterface } from 'node:readline'
import { checkPermission } from '@z-engine/engine/internal'
import { parseCommandArgs } from '../args.js'
import { EXIT, UsageError, unknownWordError } from '../cli-error.js'
import type { CommandIo } from '../command.js'

const HELP = `Usage: z-engine permissions check [--explain]

Reads one JSON object per line on stdin:
  {"tool": "Bash", "input": {"command": "npm test"}, "mode": "default",
   "rules": {"allow": [], "deny": [], "ask": []}, "cwd": "/repo", "home": "/home/me",
   "additionalDirectories": []}
Optional: "projectRoot" (default: cwd), "sandbox": {"active": true, "autoAllow": true,
"writableRoots": []}, "autoAllowReadOnlyBash": false, "allowedPrivateHosts": ["localhost"].
and writes one line per input: {"decision": "allow|ask|deny", "reason": "...", "rule": "..."}.
A malformed line gets {"error": "..."} and the run continues (exit code 1 at the end).
Paths need not exist; nothing runs.

Options:
  --explain   add "steps": the decision pipeline's steps for each call
  -h, --help  show this help
`

/** `z-engine permissions check`: the session's permission decision for each JSON line on stdin. */
export async function main(io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.argv, {
    explain: { type: 'boolean' },
    help: { type: 'boolean', short: 'h' },
  })
  if (values.help) {
    io.stdout.write(HELP)
    return EXIT.ok
  }
  const [sub, ...extra] = positionals
  if (sub === undefined)
    throw new UsageError("Missing subcommand. Run 'z-engine permissions check' (see --help).")
  if (sub !== 'check') throw unknownWordError('subcommand', sub, ['check'])
  if (extra.length > 0)
    throw new UsageError(`Unexpected argument '${extra[0]}'. Requests are read from stdin.`)
  let failed = false
  let lineNumber = 0
  const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY })
  for await (const line of lines) {
    lineNumber++
    if (line.trim() === '') continue
    const answer = answerLine(line, lineNumber, values.explain === true)
    if ('error' in answer) failed = true
    io.stdout.write(`${JSON.stringify(answer)}\n`)
  }
  return failed ? EXIT.failed : EXIT.ok
}

function answerLine(line: string, lineNumber: number, explain: boolean): Record<string, unknown> {
  let request: unknown
  try {
    request = JSON.parse(line)
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error)
    return {
      error: `line ${lineNumber}: not valid JSON (${detail}); write one JSON object per line`,
      line: lineNumber,
    }
  }
  const result = checkPermission(request)
  if (!result.ok) return { error: `line ${lineNumber}: ${result.error}`, line: lineNumber }
  const answer: Record<string, unknown> = { decision: result.decision, reason: result.reason }
  if (result.rule) answer.rule = result.rule
  if (result.suggestion) answer.suggestion = result.suggestion
  if (result.ruleErrors.length > 0)
    answer.ruleErrors = result.ruleErrors.map((error) => `${error.text}: ${error.message}`)
  if (explain) answer.steps = result.steps
  return answer
}
