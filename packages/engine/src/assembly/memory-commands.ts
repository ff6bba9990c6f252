import { createInteractionPort } from '../session/interaction-port.js'
import type { CommandAction } from '../session/session-types.js'
import { loadInstructions } from '../workspace/instructions/instructions-load.js'
import { appendMemoryNote, type MemoryTarget, memoryFile } from '../workspace/instructions/memory.js'
import type { CommandRunnerDeps } from './command-runner-deps.js'

/** The files a `#` note may go to, as the question offers them. */
const MEMORY_CHOICES: ReadonlyArray<{ target: MemoryTarget; label: string; description: string }> = [
  { target: 'project', label: 'Project', description: "This project's instructions, shared with the team" },
  { target: 'local', label: 'Project (local)', description: 'Your notes for this checkout only' },
  { target: 'user', label: 'User', description: 'Your own instructions, for every project' },
]

/** `/remember [--project|--local|--user|--ask] <note>`: where the note goes (project by default). */
export function parseRememberArgs(
  args: string,
): { ok: true; target: MemoryTarget | 'ask'; note: string } | { ok: false; error: string } {
  const match = /^--(\S+)\s*([\s\S]*)$/.exec(args.trim())
  if (match === null) return { ok: true, target: 'project', note: args.trim() }
  const flag = match[1]!
  if (flag !== 'project' && flag !== 'local' && flag !== 'user' && flag !== 'ask')
    return {
      ok: false,
      error: `/remember: unknown option --${flag}; use --project, --local, --user or --ask before the note.`,
    }
  return { ok: true, target: flag, note: match[2]!.trim() }
}

/** Appends the note to the target's instruction file and reloads the instructions. */
async function remember(deps: CommandRunnerDeps, target: MemoryTarget, note: string): Promise<CommandAction> {
  const written = await appendMemoryNote({
    target,
    projectRoot: deps.projectRoot,
    home: deps.home,
    configDir: deps.configDir,
    compatClaude: deps.settings.compat.claude,
    note,
  })
  if (!written.ok) return { type: 'notice', level: 'warning', message: written.error }
  const instructions = await loadInstructions({
    projectRoot: deps.projectRoot,
    home: deps.home,
    configDir: deps.configDir,
    compatClaude: deps.settings.compat.claude,
    ...(deps.userFiles === false ? { userFiles: false } : {}),
    isReadDenied: (path) => deps.gate.readDenied(path),
  })
  deps.system.invalidate({ instructions })
  return { type: 'output', name: 'remember', markdown: `Noted in ${written.path}.` }
}

/** Asks where a `#` note goes: the project's, this checkout's or the user's instruction file. */
async function askMemoryTarget(
  deps: CommandRunnerDeps,
  note: string,
  signal: AbortSignal,
): Promise<MemoryTarget | undefined> {
  const { projectRoot, home, configDir } = deps
  const options = MEMORY_CHOICES.map((choice) => ({
    label: choice.label,
    description: `${choice.description} (${memoryFile(choice.target, projectRoot, home, configDir, deps.settings.compat.claude)})`,
  }))
  const answers = await createInteractionPort(deps.session, { toolUseId: 'remember' }).ask(
    [
      {
        question: `Where should this note be saved? "${note}"`,
        header: 'Memory',
        options,
        multiSelect: false,
        // A closed choice: where the note goes / whether to install; nothing else answers it.
        freeText: false,
      },
    ],
    signal,
  )
  const label = answers?.[0]?.[0]
  return MEMORY_CHOICES.find((choice) => choice.label === label)?.target
}

/**
 * `/remember` and a chat's `# note` line: the note goes to the target's instruction file; with
 * `--ask` (the `#` line) the user is asked where first, as Claude Code does.
 */
export async function rememberCommand(args: string, deps: CommandRunnerDeps): Promise<CommandAction> {
  const parsed = parseRememberArgs(args)
  if (!parsed.ok) return { type: 'notice', level: 'warning', message: parsed.error }
  const { target, note } = parsed
  if (target !== 'ask') return remember(deps, target, note)
  if (note === '')
    return {
      type: 'notice',
      level: 'warning',
      message: 'The note is empty; write what to remember after #.',
    }
  // A `# note` line in the chat: ask where it goes, as Claude Code does, then write it.
  return {
    type: 'task',
    run: async (signal) => {
      const chosen = await askMemoryTarget(deps, note, signal)
      if (chosen === undefined) return { type: 'output', name: 'remember', markdown: 'Not saved.' }
      return remember(deps, chosen, note)
    },
  }
}
