import { createdInto, namesContents, treeInto } from './created-names.js'
import type { Target } from './target.js'
import type { ShellWord } from './types.js'
import { targetOf } from './word-targets.js'

/** What an archive tool or rsync creates: the folder it writes and the names it may create there. */
type Extractor = (
  args: readonly ShellWord[],
  cwd: string | undefined,
  home: string,
) => { writes: Target[]; reads?: Target[] }

/** The folder a word names (or the cwd), with every protected name a tree of unknown names may bring. */
function extractedInto(dir: ShellWord | undefined, cwd: string | undefined, home: string): Target[] {
  const target = dir
    ? targetOf(dir, cwd, home)
    : cwd === undefined
      ? undefined
      : ({ kind: 'path', path: cwd } as Target)
  if (target === undefined || target.kind !== 'path')
    return [
      target ?? { kind: 'unknown', text: '(the folder it extracts into)' },
      { kind: 'unknown', text: '(the names it extracts)' },
    ]
  return [target, ...treeInto(target.path)]
}

/**
 * rsync, tar and unzip by what they create (issue 34): `rsync -a X dir` creates `dir/X`, `X/`
 * the tree; `tar -x` and `unzip` extract names the line does not show into `-C`/`-d` or the cwd.
 * tar without `-x` writes the archive `-f` names (and reads the rest).
 */
export const EXTRACTORS: Readonly<Record<string, Extractor>> = {
  rsync: (args, cwd, home) => {
    const operands = args.filter((word) => !word.value.startsWith('-'))
    const destination = operands[operands.length - 1]
    if (operands.length < 2 || !destination)
      return { writes: [{ kind: 'unknown', text: '(what rsync writes)' }] }
    const reads = operands.slice(0, -1).map((word) => targetOf(word, cwd, home))
    const into = targetOf(destination, cwd, home)
    // `host:path` is another machine; options with values (`-e ssh`) are not told apart: unknown.
    if (into.kind !== 'path' || destination.value.includes(':'))
      return { writes: [{ kind: 'unknown', text: '(what rsync writes)' }], reads }
    const created: Target[] = [into]
    for (const source of operands.slice(0, -1)) {
      const contents = source.value.endsWith('/') || namesContents(source)
      created.push(
        ...(contents ? treeInto(into.path) : createdInto(source, targetOf(source, cwd, home), into.path)),
      )
    }
    return { writes: created, reads }
  },
  tar: (args, cwd, home) => {
    const first = args[0]?.value ?? ''
    const cluster = /^-?[A-Za-z]+$/.test(first) && !first.startsWith('--') ? first.replace(/^-/, '') : ''
    const extracting =
      cluster.includes('x') || args.some((word) => /^--(extract|get)$|^-[A-Za-z]*x/.test(word.value))
    const at = args.findIndex((word) => word.value === '-C' || word.value === '--directory')
    const inline = args.find((word) => word.value.startsWith('--directory='))
    const dir = at >= 0 ? args[at + 1] : inline ? { ...inline, value: inline.value.slice(12) } : undefined
    if (extracting) return { writes: extractedInto(dir, cwd, home) }
    // Creating: the archive is the file `-f`/`--file` names (or the value after a cluster holding f).
    const fileAt = args.findIndex((word) => word.value === '-f' || word.value === '--file')
    const archive = fileAt >= 0 ? args[fileAt + 1] : cluster.includes('f') ? args[1] : undefined
    // What it archives: every other operand (and the folders below them, for deny rules).
    const sources = args.slice(1).filter((word) => !word.value.startsWith('-') && word !== archive)
    return {
      writes: archive
        ? [targetOf(archive, cwd, home)]
        : [{ kind: 'unknown', text: '(the archive tar writes)' }],
      reads: sources.map((word) => targetOf(word, cwd, home)),
    }
  },
  zip: (args, cwd, home) => {
    const operands = args.filter((word) => !word.value.startsWith('-'))
    const [archive, ...sources] = operands
    return {
      writes: archive
        ? [targetOf(archive, cwd, home)]
        : [{ kind: 'unknown', text: '(the archive zip writes)' }],
      reads: sources.map((word) => targetOf(word, cwd, home)),
    }
  },
  unzip: (args, cwd, home) => {
    const at = args.findIndex((word) => word.value === '-d')
    if (args.some((word) => /^-[A-Za-z]*[lvtZ]/.test(word.value) && word.value !== '-d'))
      return { writes: [] }
    return { writes: extractedInto(at >= 0 ? args[at + 1] : undefined, cwd, home) }
  },
}
