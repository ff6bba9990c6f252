import { createInterface } from 'node:readline'
import { Engine } from '@z-engine/engine'
import { checkPermission, type ProjectRules, projectRulesOf } from '@z-engine/engine/settings'
import { parseCommandArgs } from '../args.js'
import { EXIT, UsageError, unknownWordError } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { projectDir } from '../cwd.js'

const HELP = `Usage: z-engine permissions check [--explain] [--project DIR]

Reads one JSON object per line on stdin:
  {"tool": "Bash", "input": {"command": "npm test"}, "mode": "default",
   "rules": {"allow": [], "deny": [], "ask": []}, "cwd": "/repo", "home": "/home/me",
   "additionalDirectories": []}
"cwd" defaults to the current folder and "home" to yours.
Optional: "projectRoot" (default: cwd), "sandbox": {"active": true, "autoAllow": true,
"writableRoots": []}, "autoAllowReadOnlyBash": false, "allowedPrivateHosts": ["localhost"].
and writes one line per input: {"decision": "allow|ask|deny", "reason": "...", "rule": "...",
"matched": {"list": "allow|ask|deny", "rule": "...", "source": "<file or input>"}}.
With --project DIR the rules, mode and additional directories are that project's, as a session
there would have them (every settings file, trust-gated; "source" names the file); a line then
needs only "tool" and "input" ("cwd" defaults to DIR, "home" to yours), and its own "rules", if
any, are added after the project's.
A malformed line gets {"error": "..."} and the run continues (exit code 1 at the end).
Paths need not exist; nothing runs.

Options:
  --explain      add "steps": the decision pipeline's steps for each call
  --project DIR  decide with the rules of the project at DIR (its settings files)
  -h, --help  show this help
`

/** `z-engine permissions check`: the session's permission decision for each JSON line on stdin. */
export async function main(io: CommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(io.argv, {
    explain: { type: 'boolean' },
    project: { type: 'string' },
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
  const project = values.project === undefined ? undefined : await loadProject(io, values.project as string)
  let failed = false
  let lineNumber = 0
  const lines = createInterface({ input: io.stdin, crlfDelay: Number.POSITIVE_INFINITY })
  for await (const line of lines) {
    lineNumber++
    if (line.trim() === '') continue
    const answer = answerLine(line, lineNumber, values.explain === true, project, {
      cwd: io.cwd,
      ...(io.env.HOME !== undefined ? { home: io.env.HOME } : {}),
    })
    if ('error' in answer) failed = true
    io.stdout.write(`${JSON.stringify(answer)}\n`)
  }
  return failed ? EXIT.failed : EXIT.ok
}

/** What `--project` adds to every line: the project's rules and the facts a session there starts with. */
interface ProjectBase {
  rules: ProjectRules
  defaults: Record<string, unknown>
}

async function loadProject(io: CommandIo, dir: string): Promise<ProjectBase> {
  const projectRoot = await projectDir(io.cwd, dir, io.env.HOME).catch(() => {
    throw new UsageError(`--project ${dir} is not a folder; pass an existing project folder.`)
  })
  const engine = await Engine.create({ env: io.env })
  const loaded = await engine.settings(projectRoot)
  return {
    rules: projectRulesOf(loaded),
    defaults: {
      cwd: projectRoot,
      projectRoot,
      home: engine.paths.home,
      mode: loaded.settings.permissions.mode,
      additionalDirectories: loaded.settings.permissions.additional_directories,
      autoAllowReadOnlyBash: loaded.settings.permissions.auto_allow_read_only_bash,
      allowedPrivateHosts: loaded.settings.web.allowed_private_hosts,
    },
  }
}

function answerLine(
  line: string,
  lineNumber: number,
  explain: boolean,
  project: ProjectBase | undefined,
  /** Without --project, what a line may leave out: the current folder and the user's home. */
  here: { cwd: string; home?: string },
): Record<string, unknown> {
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
  const result =
    project === undefined
      ? checkPermission(withDefaults(request, here))
      : checkPermission(withDefaults(request, project.defaults), project.rules)
  if (!result.ok) return { error: `line ${lineNumber}: ${result.error}`, line: lineNumber }
  const answer: Record<string, unknown> = { decision: result.decision, reason: result.reason }
  if (result.rule) answer.rule = result.rule
  if (result.matched) answer.matched = result.matched
  if (result.suggestion) answer.suggestion = result.suggestion
  if (result.ruleErrors.length > 0)
    answer.ruleErrors = result.ruleErrors.map((error) => `${error.text}: ${error.message}`)
  if (explain) answer.steps = result.steps
  return answer
}

/** A request line with the project's facts filled in where the line leaves them out. */
function withDefaults(request: unknown, defaults: Record<string, unknown>): unknown {
  if (typeof request !== 'object' || request === null || Array.isArray(request)) return request
  const line = request as Record<string, unknown>
  const merged: Record<string, unknown> = { ...defaults, ...line }
  // A line's own cwd without a projectRoot is still inside the project.
  if (line.cwd !== undefined && line.projectRoot === undefined && defaults.projectRoot !== undefined)
    merged.projectRoot = defaults.projectRoot
  return merged
}
