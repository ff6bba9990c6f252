import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { type GitContext, runGit } from './git-runner.js'

/** One region a three-way merge could not combine: what each of the three versions has there. */
export interface MergeConflict {
  ours: string
  base: string
  theirs: string
}

/** A three-way merge's result: conflicting regions keep `ours`, and are listed. */
export interface FileMerge {
  text: Buffer
  conflicts: MergeConflict[]
}

const LABELS = { ours: 'ours', base: 'base', theirs: 'theirs' } as const

/**
 * Applies the change from `base` to `theirs` onto `ours` with `git merge-file` (git's own line
 * merge, the one `git merge` uses per file). Regions both sides changed differently are conflicts:
 * they keep `ours` and are returned. Undefined when git refuses the input (a binary file).
 * The three versions go through a private temporary folder inside the shadow repository.
 */
export async function mergeThreeWay(
  context: GitContext,
  versions: { ours: Buffer; base: Buffer; theirs: Buffer },
): Promise<FileMerge | undefined> {
  const dir = await mkdtemp(join(context.gitDir, 'merge-'))
  try {
    const paths = { ours: join(dir, 'ours'), base: join(dir, 'base'), theirs: join(dir, 'theirs') }
    await Promise.all([
      writeFile(paths.ours, versions.ours),
      writeFile(paths.base, versions.base),
      writeFile(paths.theirs, versions.theirs),
    ])
    const args = (extra: string[]) => [
      'merge-file',
      '-p',
      ...extra,
      '-L',
      LABELS.ours,
      '-L',
      LABELS.base,
      '-L',
      LABELS.theirs,
      paths.ours,
      paths.base,
      paths.theirs,
    ]
    // The exit code is the number of conflicts (capped at 127); 255 means git refused (binary input).
    const marked = await runGit(context, args(['--diff3']), { noWorkTree: true })
    if (marked.code < 0 || marked.code > 127) return undefined
    if (marked.code === 0) return { text: marked.stdout, conflicts: [] }
    const resolved = await runGit(context, args(['--ours']), { noWorkTree: true })
    if (resolved.code !== 0) return undefined
    return { text: resolved.stdout, conflicts: conflictsOf(marked.stdout.toString('utf8')) }
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

/** The conflict regions of a `--diff3` merge output, by its markers. */
function conflictsOf(text: string): MergeConflict[] {
  const conflicts: MergeConflict[] = []
  let section: keyof MergeConflict | undefined
  let current: Record<keyof MergeConflict, string[]> = { ours: [], base: [], theirs: [] }
  for (const line of text.split('\n')) {
    if (line === `<<<<<<< ${LABELS.ours}`) {
      section = 'ours'
      current = { ours: [], base: [], theirs: [] }
    } else if (section === 'ours' && line === `||||||| ${LABELS.base}`) section = 'base'
    else if (section === 'base' && line === '=======') section = 'theirs'
    else if (section === 'theirs' && line === `>>>>>>> ${LABELS.theirs}`) {
      conflicts.push({
        ours: current.ours.join('\n'),
        base: current.base.join('\n'),
        theirs: current.theirs.join('\n'),
      })
      section = undefined
    } else if (section !== undefined) current[section].push(line)
  }
  return conflicts
}
