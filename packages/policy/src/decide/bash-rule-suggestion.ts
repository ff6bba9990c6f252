import type { SuggestedRule } from '@z-engine/protocol'
import { normalizePath, relativeTo } from '../paths/normalize.js'
import type { CommandFacts, Target } from '../shell/analyze.js'
import type { PolicyContext } from './context.js'
import type { Access } from './shell-path-verdict.js'

/** Commands whose second word names what they do (`npm test`, `git push`). */
const SUBCOMMAND_TOOLS = new Set([
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'npx',
  'git',
  'cargo',
  'go',
  'docker',
  'kubectl',
  'make',
  'pip',
  'uv',
  'poetry',
  'gradle',
  'mvn',
  'dotnet',
  'deno',
  'gh',
  'terraform',
  'helm',
  'brew',
  'apt',
  'apt-get',
  'just',
])

/** Interpreters that run their standard input when given no script. */
const RUNS_STDIN = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'fish',
  'python',
  'python3',
  'node',
  'perl',
  'ruby',
  'php',
])

/** Commands whose prefix rule would cover anything; only the exact command is suggested. */
const EXACT_ONLY = new Set([
  ...RUNS_STDIN,
  'rm',
  'rmdir',
  'shred',
  'dd',
  'mkfs',
  'chmod',
  'chown',
  'sudo',
  'doas',
  'su',
  'eval',
  'exec',
  'source',
  '.',
  'curl',
  'wget',
  'kill',
  'pkill',
  'killall',
  'xargs',
  'env',
  'find',
])

/** The `Bash(<stable prefix>:*)` an approval card offers for a command. */
export function suggestBashRule(command: CommandFacts): string | undefined {
  const [name, second] = command.words
  if (!name?.literal || name.value === '' || /[()]/.test(name.value)) return undefined
  if (EXACT_ONLY.has(name.value)) {
    // A prefix rule for an interpreter or a destructive command would allow anything: offer this exact command.
    return command.words.every((word) => word.literal) && !/[()]/.test(command.text)
      ? `Bash(${command.text})`
      : undefined
  }
  const words = [name.value]
  if (second?.literal && SUBCOMMAND_TOOLS.has(name.value) && /^[A-Za-z0-9][\w:.-]*$/.test(second.value))
    words.push(second.value)
  return `Bash(${words.join(' ')}:*)`
}

/** One thing a line needs permission for that no rule grants yet. */
export type Needed =
  | { kind: 'command'; command: CommandFacts }
  | { kind: 'write'; target: Target }
  | { kind: 'outside'; target: Target; access: Access }

/**
 * The rules that, granted together, allow this line next time: a `Bash(…)` rule per uncovered
 * command, an `Edit(…)` rule per write no rule permits, a `Read(…)` rule per folder read outside the
 * project and an `Edit(…)` rule per path written there. Nothing when any part has no safe rule (a computed command): an "always"
 * that would still ask, or would cover only the first command, is worse than none.
 */
export function suggestionCovering(
  needed: readonly Needed[],
  context: PolicyContext,
  scope: SuggestedRule['scope'],
): SuggestedRule | undefined {
  const rules: string[] = []
  const order: Record<Needed['kind'], number> = { command: 0, write: 1, outside: 2 }
  for (const item of [...needed].sort((a, b) => order[a.kind] - order[b.kind])) {
    const rule = ruleFor(item, context)
    if (rule === undefined) return undefined
    if (!rules.includes(rule)) rules.push(rule)
  }
  const [first] = rules
  if (first === undefined) return undefined
  return rules.length === 1 ? { rule: first, scope } : { rule: first, rules, scope }
}

function ruleFor(item: Needed, context: PolicyContext): string | undefined {
  switch (item.kind) {
    case 'command':
      // `Bash(sh)` would allow whatever any later line pipes into a shell: no "always" for that.
      if (item.command.words.length === 1 && RUNS_STDIN.has(item.command.words[0]?.value ?? ''))
        return undefined
      return suggestBashRule(item.command)
    case 'write': {
      if (item.target.kind === 'unknown') return undefined
      const rel = relativeTo(targetPath(item.target), normalizePath(context.projectRoot))
      if (rel === undefined) return folderRule('Edit', item.target)
      const folder = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : ''
      return folder === '' ? 'Edit(/*)' : `Edit(/${folder}/**)`
    }
    case 'outside':
      if (item.target.kind === 'unknown') return undefined
      // A read outside may take the folder; a write outside (`rm -rf ~`) only the path it names.
      if (item.access === 'edit' && item.target.kind === 'path') return `Edit(/${item.target.path})`
      return folderRule(item.access === 'read' ? 'Read' : 'Edit', item.target)
    default: {
      const unreachable: never = item
      throw new Error(`unknown need ${JSON.stringify(unreachable)}`)
    }
  }
}

/** `Read(//abs/folder/**)`: the folder holding a file, or a glob's base folder. */
function folderRule(tool: 'Read' | 'Edit', target: Exclude<Target, { kind: 'unknown' }>): string {
  const folder = target.kind === 'glob' ? target.base : target.path.slice(0, target.path.lastIndexOf('/'))
  return `${tool}(/${folder.replace(/\/$/, '')}/**)`
}

export function targetPath(target: Exclude<Target, { kind: 'unknown' }>): string {
  return target.kind === 'path' ? target.path : target.base
}
