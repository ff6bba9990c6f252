import type { CommandFacts, LineFacts, Target } from '../shell/analyze.js'
import type { PolicyContext } from './context.js'
import { targetsOf } from './files.js'

/**
 * A line's facts with each file a command reads or writes also named by its real path, when the
 * engine's path facts show a link leading elsewhere (issue 12 finding 9: `cat lnk/.ssh/id_rsa`
 * through a repository-shipped `lnk -> $HOME`). Deny rules, the project scope and protected paths
 * then judge both spellings, as they do for the file tools. A path whose real path cannot be told
 * (a link loop) becomes an unknown target, which never counts as proven.
 */
export function withRealPaths(facts: LineFacts, context: PolicyContext): LineFacts {
  if (!context.pathFacts) return facts
  return { ...facts, commands: facts.commands.map((command) => commandWithRealPaths(command, context)) }
}

function commandWithRealPaths(command: CommandFacts, context: PolicyContext): CommandFacts {
  const reads = expand(command.reads, context)
  const writes = expand(command.writes, context)
  const writeThrough = expand(command.writeThrough, context)
  if (reads === command.reads && writes === command.writes && writeThrough === command.writeThrough)
    return command
  const unknownRead = reads.some((target) => target.kind === 'unknown')
  return {
    ...command,
    reads,
    writes,
    writeThrough,
    // A read the engine cannot resolve is not proven safe to run unasked.
    ...(unknownRead && command.readOnly
      ? { readOnly: false, reason: 'a path it reads cannot be resolved (a link loop)' }
      : {}),
  }
}

function expand(targets: Target[], context: PolicyContext): Target[] {
  let out: Target[] | undefined
  for (const target of targets) {
    if (target.kind === 'unknown') continue
    // A glob is judged by its fixed folder: `head lnk/*` through `lnk -> $HOME` reads the home.
    const given = target.kind === 'path' ? target.path : target.base
    const resolved = targetsOf([given], context)
    const extra: Target[] = resolved.targets
      .filter((candidate) => candidate.via !== undefined)
      .map((candidate) =>
        target.kind === 'path'
          ? { kind: 'path', path: candidate.path }
          : {
              kind: 'glob',
              base: candidate.path,
              pattern: target.pattern.startsWith(given)
                ? `${candidate.path}${target.pattern.slice(given.length)}`
                : target.pattern,
            },
      )
    if (resolved.unresolved !== undefined) extra.push({ kind: 'unknown', text: given })
    if (extra.length === 0) continue
    out ??= [...targets]
    out.push(...extra)
  }
  return out ?? targets
}
