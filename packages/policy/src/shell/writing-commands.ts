import { readArgs } from './command-args.js'
import { createdInto } from './created-names.js'
import { downloadTargets } from './downloaders.js'
import { EXTRACTORS } from './extractors.js'
import type { Target } from './target.js'
import type { ShellWord } from './types.js'
import type { EffectiveCommand } from './unwrap.js'
import { targetOf } from './word-targets.js'

/** Commands whose operands name files they change; `skip` operands come first (chmod's mode). */
const WRITING_COMMANDS: Readonly<Record<string, { skip: number; values: readonly string[] }>> = {
  rm: { skip: 0, values: [] },
  unlink: { skip: 0, values: [] },
  shred: { skip: 0, values: ['-n', '-s', '--iterations', '--size'] },
  truncate: { skip: 0, values: ['-s', '--size', '-r', '--reference'] },
  tee: { skip: 0, values: ['--output-error'] },
  chmod: { skip: 1, values: ['--reference'] },
  chown: { skip: 1, values: ['--reference', '--from'] },
  chgrp: { skip: 1, values: ['--reference'] },
  ln: { skip: 0, values: ['-t', '--target-directory', '-S', '--suffix'] },
  mkdir: { skip: 0, values: ['-m', '--mode'] },
  touch: { skip: 0, values: ['-d', '--date', '-t', '-r', '--reference'] },
  cp: { skip: 0, values: ['-t', '--target-directory', '-S', '--suffix'] },
  mv: { skip: 0, values: ['-t', '--target-directory', '-S', '--suffix'] },
  rmdir: { skip: 0, values: [] },
  install: {
    skip: 0,
    values: ['-m', '--mode', '-o', '--owner', '-g', '--group', '-t', '--target-directory'],
  },
}

const COPYING = new Set(['cp', 'mv', 'ln', 'install'])

/** Every operand of a writing command, all counted as written (and, for copies, also as read). */
export function otherTargets(command: EffectiveCommand, cwd: string | undefined, home: string) {
  const name = command.words[0]
  const spec = name?.literal ? WRITING_COMMANDS[name.value] : undefined
  const extractor =
    name?.literal && Object.hasOwn(EXTRACTORS, name.value) ? EXTRACTORS[name.value] : undefined
  if (extractor) {
    const { writes, reads = [] } = extractor(command.words.slice(1), cwd, home)
    // Archiving or syncing a folder reads every file below it.
    return { reads, writes, through: [] as Target[], recursive: reads.length > 0 }
  }
  if (!spec || !name) {
    const downloads = downloadTargets(command, cwd, home)
    return { reads: [], writes: downloads, through: downloads }
  }
  const read = readArgs(command.words.slice(1), { valueFlags: spec.values })
  const targets: Target[] = read.positionals.slice(spec.skip).map((word) => targetOf(word, cwd, home))
  for (const flag of ['-t', '--target-directory']) {
    for (const word of read.values.get(flag) ?? []) targets.push(targetOf(word, cwd, home))
  }
  if (command.unknownArgs || read.refusal) targets.push({ kind: 'unknown', text: '(arguments not shown)' })
  const writes = [...targets]
  // A copy or move creates names inside its destination folder (`cp -r vendor/. .` → the tree).
  if ((name.value === 'cp' || name.value === 'mv') && read.positionals.length >= 2) {
    const dir = read.values.get('-t')?.[0] ?? read.values.get('--target-directory')?.[0]
    const destination = dir ?? (read.positionals[read.positionals.length - 1] as ShellWord)
    const into = targetOf(destination, cwd, home)
    const sources = dir ? read.positionals : read.positionals.slice(0, -1)
    for (const source of sources)
      writes.push(
        ...(into.kind === 'path' ? createdInto(source, targetOf(source, cwd, home), into.path) : []),
      )
    if (into.kind !== 'path') writes.push({ kind: 'unknown', text: '(the names the copy creates)' })
  }
  const recursive =
    COPYING.has(name.value) &&
    read.flags.some((flag) => /^-[A-Za-z]*[rRa]|^--(recursive|archive)$/.test(flag))
  return { reads: COPYING.has(name.value) ? targets : [], writes, through: [] as Target[], recursive }
}
