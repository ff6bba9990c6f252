import { readArgs } from './command-args.js'
import { createdInto, treeInto } from './created-names.js'
import type { Target } from './target.js'
import type { ShellWord } from './types.js'
import type { EffectiveCommand } from './unwrap.js'
import { targetOf } from './word-targets.js'

const FILE_COMMANDS: Readonly<Record<string, { flags: readonly string[]; values: readonly string[] }>> = {
  mkdir: { flags: ['-p', '--parents', '-v', '--verbose'], values: ['-m', '--mode'] },
  touch: {
    flags: ['-a', '-m', '-c', '--no-create', '-h'],
    values: ['-d', '--date', '-t', '-r', '--reference'],
  },
  cp: {
    flags: [
      '-r',
      '-R',
      '--recursive',
      '-f',
      '--force',
      '-i',
      '-n',
      '--no-clobber',
      '-p',
      '-v',
      '--verbose',
      '-a',
      '--archive',
      '-u',
      '--update',
      '-L',
      '-P',
      '-H',
      '-T',
      '--no-target-directory',
    ],
    values: ['-t', '--target-directory'],
  },
  mv: {
    flags: [
      '-f',
      '--force',
      '-i',
      '-n',
      '--no-clobber',
      '-v',
      '--verbose',
      '-u',
      '--update',
      '-T',
      '--no-target-directory',
    ],
    values: ['-t', '--target-directory'],
  },
  rmdir: { flags: ['-p', '--parents', '-v', '--verbose'], values: [] },
}

/** The reads and writes of mkdir/touch/cp/mv/rmdir when every option is known and every target determined. */
export function simpleFileCommand(command: EffectiveCommand, cwd: string | undefined, home: string) {
  const name = command.words[0]
  const spec = name?.literal ? FILE_COMMANDS[name.value] : undefined
  if (!spec || !name || command.elevated || command.unknownArgs || command.assignments.length > 0)
    return undefined
  const read = readArgs(command.words.slice(1), { valueFlags: spec.values })
  if (read.refusal) return undefined
  if (read.flags.some((flag) => !spec.flags.includes(flag) && !spec.values.includes(flag))) return undefined
  const targetDir = read.values.get('-t')?.[0] ?? read.values.get('--target-directory')?.[0]
  const operands = read.positionals
  if (operands.length === 0 && !targetDir) return undefined
  const reads: Target[] = []
  const writes: Target[] = []
  const isCopyOrMove = name.value === 'cp' || name.value === 'mv'
  const destination = isCopyOrMove ? (targetDir ?? operands[operands.length - 1]) : undefined
  const sources = isCopyOrMove && !targetDir ? operands.slice(0, -1) : operands
  if (isCopyOrMove && (!destination || sources.length === 0)) return undefined
  const sourceTargets: Array<readonly [ShellWord, Target]> = []
  for (const operand of sources) {
    const target = targetOf(operand, cwd, home)
    if (target.kind === 'unknown') return undefined
    if (name.value === 'cp') reads.push(target)
    else if (target.kind === 'glob') return undefined
    else writes.push(target)
    sourceTargets.push([operand, target])
  }
  if (destination) {
    const target = targetOf(destination, cwd, home)
    if (target.kind !== 'path') return undefined
    writes.push(target)
    // What the copy creates, not only the operand it names (issue 34): `cp -r X/Y dir` creates
    // `dir/Y` when dir is a folder; `cp -r X/. dir` creates whatever X holds.
    // With -T the destination becomes the copy: a folder's contents land in it directly.
    const recursive =
      name.value === 'mv' ||
      ['-r', '-R', '--recursive', '-a', '--archive'].some((flag) => read.flags.includes(flag))
    const noTargetDir =
      recursive && (read.flags.includes('-T') || read.flags.includes('--no-target-directory'))
    for (const [word, source] of sourceTargets) {
      const created = noTargetDir ? treeInto(target.path) : createdInto(word, source, target.path)
      for (const name of created) {
        writes.push(name)
      }
    }
  }
  const recursive =
    name.value === 'mv' ||
    ['-r', '-R', '--recursive', '-a', '--archive'].some((flag) => read.flags.includes(flag))
  // A move takes its sources' contents along: they count as read too.
  if (name.value === 'mv') for (const [, source] of sourceTargets) reads.push(source)
  return { reads, writes, recursive }
}
