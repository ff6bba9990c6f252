import { dot, refused, type TableVerdict } from './read-only-checks.js'
import type { ReadOnlyEntry } from './read-only-entry.js'
import type { ShellWord } from './types.js'

/** find's expression words that take no value. */
const FIND_FLAGS = new Set([
  '-true',
  '-false',
  '-depth',
  '-mount',
  '-xdev',
  '-follow',
  '-noleaf',
  '-daystart',
  '-ignore_readdir_race',
  '-noignore_readdir_race',
  '-print',
  '-print0',
  '-ls',
  '-prune',
  '-quit',
  '-nouser',
  '-nogroup',
  '-empty',
  '-readable',
  '-writable',
  '-executable',
  '-not',
  '-a',
  '-and',
  '-o',
  '-or',
  '!',
  '(',
  ')',
  ',',
])
/** find's expression words that take one plain value (a pattern, a number, a type). */
const FIND_VALUES = new Set([
  '-name',
  '-iname',
  '-path',
  '-ipath',
  '-wholename',
  '-iwholename',
  '-regex',
  '-iregex',
  '-regextype',
  '-lname',
  '-ilname',
  '-type',
  '-xtype',
  '-size',
  '-mtime',
  '-mmin',
  '-atime',
  '-amin',
  '-ctime',
  '-cmin',
  '-used',
  '-perm',
  '-user',
  '-group',
  '-uid',
  '-gid',
  '-links',
  '-inum',
  '-maxdepth',
  '-mindepth',
  '-printf',
  '-fstype',
  '-context',
])
/** find's expression words whose value is a file it reads (its times, its identity). */
const FIND_READS = new Set(['-newer', '-anewer', '-cnewer', '-samefile'])

function checkFind(args: readonly ShellWord[]): TableVerdict {
  const reads: ShellWord[] = []
  let index = 0
  // Leading options: -H -L -P (symlink handling), -D debug, -O level.
  while (index < args.length && /^-[HLP]$|^-O\d$/.test(args[index]?.value ?? '')) index++
  const roots: ShellWord[] = []
  while (index < args.length && !/^[-(!),]/.test(args[index]?.value ?? '')) {
    const word = args[index++] as ShellWord
    if (!word.literal && !/^[^-*?[$`"'\\{~]/.test(word.value))
      return refused(`'${word.value}' may expand to a find expression`)
    roots.push(word)
  }
  for (; index < args.length; index++) {
    const word = args[index] as ShellWord
    const value = word.value
    if (!word.literal) return refused(`'${value}' may expand to a find action`)
    if (FIND_FLAGS.has(value)) continue
    const operand = args[index + 1]
    if (FIND_VALUES.has(value) || FIND_READS.has(value) || /^-newer[amcBt][amcBt]$/.test(value)) {
      if (!operand) return refused(`find ${value} lacks its value`)
      if (!operand.literal) return refused(`the value of find ${value} may expand (${operand.value})`)
      if (FIND_READS.has(value) || (/^-newer[amcBt][amcB]$/.test(value) && operand)) reads.push(operand)
      index++
      continue
    }
    return refused(`find ${value} is not an expression the proof knows`)
  }
  return { reads: [...(roots.length > 0 ? roots : [dot()]), ...reads], writes: [], recursive: true }
}

/** find: only tests and printing actions; -exec, -ok, -delete and -fprint* refuse. */
export const FIND: ReadOnlyEntry = {
  names: ['find'],
  summary:
    'tests (-name, -path, -regex, -type, -size, -mtime, -newer, -perm, -user, -empty, …), operators and the printing actions -print, -print0, -printf, -ls, -prune, -quit; -exec, -execdir, -ok, -okdir, -delete, -fprint, -fprint0, -fprintf, -fls, -files0-from and anything else refuse',
  match: [
    "find . -name '*.ts' -type f",
    'find src -type f -newer x',
    'find . -maxdepth 2 \\( -name a -o -name b \\)',
  ],
  notMatch: [
    'find . -delete',
    'find . -exec rm {} ;',
    'find . -fprint out',
    'find . -name *.ts',
    'find . -files0-from list',
    'find $DIR',
  ],
  check: checkFind,
}
