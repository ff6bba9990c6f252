import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmod, mkdtemp, readFile, rename, rm, symlink, unlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkpointRepoDir } from './checkpoint-paths.js'
import type { CheckpointResult } from './checkpoint-types.js'
import { ShadowCheckpoints } from './shadow-checkpoints.js'
import { dotGitState, git, treeState, writeFiles } from './test-tree.js'

let scratch: string
let project: string
let dataDir: string

beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'z-checkpoints-'))
  project = join(scratch, 'project')
  dataDir = join(scratch, 'data')
  await writeFiles(project, { 'README.md': '# demo\n' })
})

afterEach(async () => {
  await rm(scratch, { recursive: true, force: true })
})

function value<T>(result: CheckpointResult<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
  return result.value
}

async function openCheckpoints(maxFileBytes?: number): Promise<ShadowCheckpoints> {
  return value(
    await ShadowCheckpoints.open({
      projectRoot: project,
      gitDir: checkpointRepoDir(dataDir, project),
      ...(maxFileBytes !== undefined ? { maxFileBytes } : {}),
    }),
  )
}

function shadowFiles(checkpoints: ShadowCheckpoints, commit: string): string[] {
  return execFileSync('git', ['--git-dir', checkpoints.gitDir, 'ls-tree', '-r', '--full-tree', commit], {
    encoding: 'utf8',
  })
    .split('\n')
    .filter((line) => line !== '')
}

const binary = randomBytes(4096)

async function buildTree(): Promise<void> {
  await writeFiles(project, {
    'src/main.ts': 'export const answer = 42\n',
    'src/util/strings.ts': 'export const x = "a\\r\\nb"\r\n',
    'assets/logo.bin': binary,
    'scripts/run.sh': '#!/bin/sh\necho run\n',
    'name with spaces [1].txt': 'odd name\n',
    'docs/ünïcode.md': 'unicode\n',
  })
  await chmod(join(project, 'scripts/run.sh'), 0o755)
  await symlink('src/main.ts', join(project, 'main-link'))
}

async function mutateTree(): Promise<void> {
  await writeFiles(project, { 'src/main.ts': 'export const answer = 43\n', 'src/new/added.ts': 'new\n' })
  await unlink(join(project, 'README.md'))
  await rename(join(project, 'src/util/strings.ts'), join(project, 'src/util/text.ts'))
  const changed = Buffer.from(binary)
  changed[10] = (changed[10] ?? 0) ^ 0xff
  await writeFile(join(project, 'assets/logo.bin'), changed)
  await chmod(join(project, 'scripts/run.sh'), 0o644)
  await unlink(join(project, 'main-link'))
  await symlink('README.md', join(project, 'main-link'))
}

describe('ShadowCheckpoints in a project that is not a git repository', () => {
  it('snapshots, restores byte for byte both ways, and diffs', async () => {
    await buildTree()
    const checkpoints = await openCheckpoints()
    const first = value(await checkpoints.snapshot('turn 1'))
    const stateA = await treeState(project)
    await mutateTree()
    const second = value(await checkpoints.snapshot('turn 2'))
    const stateB = await treeState(project)
    expect(second.commit).not.toBe(first.commit)
    expect(second.reused).toBe(false)

    const restored = value(await checkpoints.restore(first.commit))
    expect(await treeState(project)).toEqual(stateA)
    expect(restored.changedPaths).toContain('src/new/added.ts')
    value(await checkpoints.restore(second.commit))
    expect(await treeState(project)).toEqual(stateB)

    await writeFiles(project, { 'src/main.ts': 'edited after the second checkpoint\n' })
    const preview = value(await checkpoints.previewRestore(second.commit))
    expect(preview.files).toEqual([{ status: 'modified', path: 'src/main.ts' }])
    expect(preview.patch).toContain('-edited after the second checkpoint')
    value(await checkpoints.restore(second.commit))

    const diff = value(await checkpoints.diff(first.commit, second.commit))
    const byPath = Object.fromEntries(diff.files.map((file) => [file.path, file]))
    expect(byPath['src/new/added.ts']?.status).toBe('added')
    expect(byPath['README.md']?.status).toBe('deleted')
    expect(byPath['src/main.ts']?.status).toBe('modified')
    expect(byPath['src/util/text.ts']).toEqual({
      status: 'renamed',
      oldPath: 'src/util/strings.ts',
      path: 'src/util/text.ts',
    })
    expect(diff.patch).toContain('-export const answer = 42')
    expect(diff.patch).toContain('Binary files')
  })

  it('reuses the previous checkpoint when nothing changed, and sees changes made by a shell', async () => {
    await buildTree()
    const checkpoints = await openCheckpoints()
    const first = value(await checkpoints.snapshot())
    const again = value(await checkpoints.snapshot())
    expect(again).toMatchObject({ commit: first.commit, reused: true })
    const reopened = await openCheckpoints()
    expect(value(await reopened.snapshot())).toMatchObject({ commit: first.commit, reused: true })
    execFileSync('sh', ['-c', 'echo made-by-shell > generated.txt && rm src/main.ts'], { cwd: project })
    const third = value(await reopened.snapshot())
    expect(third.reused).toBe(false)
    const files = shadowFiles(reopened, third.commit).join('\n')
    expect(files).toContain('generated.txt')
    expect(files).not.toContain('src/main.ts')
  })

  it('compacts the shadow repository without losing checkpoints', async () => {
    await buildTree()
    const checkpoints = await openCheckpoints()
    const first = value(await checkpoints.snapshot())
    const stateA = await treeState(project)
    await mutateTree()
    value(await checkpoints.snapshot())
    value(await checkpoints.compact())
    const packs = execFileSync('git', ['--git-dir', checkpoints.gitDir, 'count-objects', '-v'], {
      encoding: 'utf8',
    })
    expect(packs).toMatch(/^count: 0$/m)
    value(await checkpoints.restore(first.commit))
    expect(await treeState(project)).toEqual(stateA)
  })

  it('a new instance reuses the head read from a loose or a packed commit, and reinitialises a damaged repository', async () => {
    await buildTree()
    const first = value(await (await openCheckpoints()).snapshot())
    // Loose: the head's tree comes from the object file.
    expect(value(await (await openCheckpoints()).snapshot())).toMatchObject({
      commit: first.commit,
      reused: true,
    })
    // Packed (after compact): from git.
    value(await (await openCheckpoints()).compact())
    expect(value(await (await openCheckpoints()).snapshot())).toMatchObject({
      commit: first.commit,
      reused: true,
    })
    // A shadow repository missing its HEAD is set up again on open, keeping its objects and refs.
    const reopened = await openCheckpoints()
    await unlink(join(reopened.gitDir, 'HEAD'))
    expect(value(await (await openCheckpoints()).snapshot())).toMatchObject({
      commit: first.commit,
      reused: true,
    })
  })

  it('snapshotAndMark marks a new checkpoint with it, and the reused one when nothing changed', async () => {
    const checkpoints = await openCheckpoints()
    const start = value(await checkpoints.snapshot('start'))
    const same = value(await checkpoints.snapshotAndMark('turn-0', 'after turn 0'))
    expect(same).toMatchObject({ commit: start.commit, reused: true })
    expect(await checkpoints.marked('turn-0')).toBe(start.commit)
    await writeFiles(project, { 'new.txt': 'new\n' })
    const changed = value(await checkpoints.snapshotAndMark('turn-1', 'after turn 1'))
    expect(changed.reused).toBe(false)
    expect(await checkpoints.marked('turn-1')).toBe(changed.commit)
    // unmark drops the name only; removing a missing mark is not an error.
    value(await checkpoints.unmark('turn-1'))
    expect(await checkpoints.marked('turn-1')).toBeUndefined()
    value(await checkpoints.unmark('turn-1'))
    expect(value(await checkpoints.changedPaths(start.commit, changed.commit))).toEqual(['new.txt'])
    expect(
      execFileSync('git', ['--git-dir', checkpoints.gitDir, 'rev-parse', 'refs/z-engine/checkpoints'], {
        encoding: 'utf8',
      }).trim(),
    ).toBe(changed.commit)
  })

  it('leaves files above the size limit out and untouched', async () => {
    await writeFiles(project, { 'big.dat': Buffer.alloc(5000, 1), 'small.txt': 'small\n' })
    const checkpoints = await openCheckpoints(1000)
    const first = value(await checkpoints.snapshot())
    expect(first.skippedLarge).toEqual(['big.dat'])
    expect(shadowFiles(checkpoints, first.commit).join('\n')).not.toContain('big.dat')
    await writeFiles(project, { 'big.dat': Buffer.alloc(6000, 2), 'small.txt': 'changed\n' })
    value(await checkpoints.restore(first.commit))
    expect((await readFile(join(project, 'big.dat'))).length).toBe(6000)
    expect(await readFile(join(project, 'small.txt'), 'utf8')).toBe('small\n')
  })

  it('replaces a file with a directory and back', async () => {
    await writeFiles(project, { thing: 'a file\n' })
    const checkpoints = await openCheckpoints()
    const asFile = value(await checkpoints.snapshot())
    const stateFile = await treeState(project)
    await unlink(join(project, 'thing'))
    await writeFiles(project, { 'thing/inside.txt': 'now a dir\n' })
    const asDir = value(await checkpoints.snapshot())
    const stateDir = await treeState(project)
    value(await checkpoints.restore(asFile.commit))
    expect(await treeState(project)).toEqual(stateFile)
    value(await checkpoints.restore(asDir.commit))
    expect(await treeState(project)).toEqual(stateDir)
  })

  it('stays correct when two sessions share the shadow repository', async () => {
    await buildTree()
    const a = await openCheckpoints()
    const b = await openCheckpoints()
    const first = value(await a.snapshot())
    await writeFiles(project, { 'src/main.ts': 'changed by session b\n' })
    const second = value(await b.snapshot())
    expect(second.commit).not.toBe(first.commit)
    // a's cached view of the index is stale now; it must notice instead of reusing the first tree.
    expect(value(await a.snapshot())).toMatchObject({ commit: second.commit, reused: true })
    const results = await Promise.all(
      Array.from({ length: 6 }, async (_, index) => {
        await writeFiles(project, { [`parallel-${index}.txt`]: `${index}\n` })
        return (index % 2 === 0 ? a : b).snapshot()
      }),
    )
    expect(results.every((result) => result.ok)).toBe(true)
    const last = value(await a.snapshot())
    const files = shadowFiles(a, last.commit).join('\n')
    for (let index = 0; index < 6; index++) expect(files).toContain(`parallel-${index}.txt`)
  })

  it('stores bytes as they are despite .gitattributes (eol, filters)', async () => {
    await writeFiles(project, {
      '.gitattributes': '* text=auto eol=crlf\n*.txt filter=lfs diff=lfs\n*.c ident\n',
      'mixed.md': 'unix\nwindows\r\nunix again\n',
      'notes.txt': 'would go through a filter\r\n',
      'code.c': '/* $Id$ */\n',
    })
    const checkpoints = await openCheckpoints()
    const first = value(await checkpoints.snapshot())
    const state = await treeState(project)
    await writeFiles(project, { 'mixed.md': 'changed\n', 'notes.txt': 'changed\n', 'code.c': 'changed\n' })
    value(await checkpoints.restore(first.commit))
    expect(await treeState(project)).toEqual(state)
  })

  it('retries when a file vanishes between listing and staging it', async () => {
    await writeFiles(project, { 'keep.txt': 'keep\n', 'temp.txt': 'short-lived\n' })
    // A git wrapper that deletes temp.txt right before the first `git add`: the race a build or a
    // background shell creates, made deterministic.
    const wrapper = join(scratch, 'git-wrapper.sh')
    await writeFile(
      wrapper,
      '#!/bin/sh\nfor a in "$@"; do if [ "$a" = add ] && [ ! -e "$MARKER" ]; then touch "$MARKER"; rm -f "$VICTIM"; fi; done\nexec git "$@"\n',
    )
    await chmod(wrapper, 0o755)
    const marker = join(scratch, 'raced')
    const checkpoints = value(
      await ShadowCheckpoints.open({
        projectRoot: project,
        gitDir: checkpointRepoDir(dataDir, project),
        gitPath: wrapper,
        env: { ...process.env, MARKER: marker, VICTIM: join(project, 'temp.txt') },
      }),
    )
    const snapshot = value(await checkpoints.snapshot())
    const files = shadowFiles(checkpoints, snapshot.commit).join('\n')
    expect(files).toContain('keep.txt')
    expect(files).not.toContain('temp.txt')
    expect(await readFile(marker, 'utf8')).toBe('')
  })

  it('stage() leaves a snapshot one git process: the same checkpoint as without it, later changes included', async () => {
    await buildTree()
    // A git that logs each command it runs, so the test counts processes, not milliseconds.
    const wrapper = join(scratch, 'git-logging.sh')
    const log = join(scratch, 'git.log')
    await writeFile(wrapper, `#!/bin/sh\necho "$*" >> '${log}'\nexec git "$@"\n`)
    await chmod(wrapper, 0o755)
    const gitDir = checkpointRepoDir(dataDir, project)
    const checkpoints = value(
      await ShadowCheckpoints.open({ projectRoot: project, gitDir, gitPath: wrapper }),
    )
    const before = value(await checkpoints.snapshot('before'))
    const commands = async () => {
      const text = await readFile(log, 'utf8').catch(() => '')
      await rm(log, { force: true })
      return text.split('\n').filter((line) => line !== '')
    }
    await commands()
    // The turn's writes, staged while (say) the model answers; no checkpoint is made yet.
    await writeFiles(project, { 'src/main.ts': 'export const answer = 43\n', 'src/new.ts': 'new\n' })
    value(await checkpoints.stage())
    expect((await commands()).length).toBeGreaterThan(1)
    expect(
      execFileSync('git', ['--git-dir', gitDir, 'rev-parse', 'refs/z-engine/checkpoints'], {
        encoding: 'utf8',
      }).trim(),
    ).toBe(before.commit)
    const after = value(await checkpoints.snapshotAndMark('after-t1', 'after'))
    const ran = await commands()
    expect(ran).toHaveLength(1)
    expect(ran[0]).toContain('ls-files')
    expect(after.reused).toBe(false)
    const files = shadowFiles(checkpoints, after.commit).join('\n')
    expect(files).toContain('src/new.ts')
    // The same tree a snapshot without the staging pass records.
    const plain = value(
      await ShadowCheckpoints.open({ projectRoot: project, gitDir: join(scratch, 'plain.git') }),
    )
    expect(value(await plain.snapshot()).tree).toBe(after.tree)
    // A change after the staging pass is still captured by the snapshot.
    value(await checkpoints.stage())
    await writeFiles(project, { 'late.txt': 'written by a Stop hook\n' })
    const late = value(await checkpoints.snapshot('late'))
    expect(shadowFiles(checkpoints, late.commit).join('\n')).toContain('late.txt')
  })

  it('skips a snapshot beyond its file or byte budget, copying nothing, and takes it once within', async () => {
    const files: Record<string, string> = {}
    for (let i = 0; i < 40; i++) files[`many/file${i}.txt`] = `file ${i}\n`
    await writeFiles(project, files)
    const gitDir = checkpointRepoDir(dataDir, project)
    const tight = value(await ShadowCheckpoints.open({ projectRoot: project, gitDir, maxFiles: 10 }))
    const overFiles = await tight.snapshot()
    expect(overFiles).toMatchObject({ ok: false, error: { code: 'overBudget' } })
    if (!overFiles.ok) expect(overFiles.error.message).toContain('more than 10 files to capture')
    const objects = () =>
      execFileSync('git', ['--git-dir', gitDir, 'count-objects', '-v'], { encoding: 'utf8' }).match(
        /^count: (\d+)/m,
      )?.[1]
    expect(objects()).toBe('0')
    const small = value(await ShadowCheckpoints.open({ projectRoot: project, gitDir, maxBytes: 100 }))
    const overBytes = await small.snapshot()
    expect(overBytes).toMatchObject({ ok: false, error: { code: 'overBudget' } })
    if (!overBytes.ok) expect(overBytes.error.message).toContain('more than 0 MiB to capture')
    expect(objects()).toBe('0')
    // Within budget it captures everything; later passes count only what changed.
    const roomy = value(await ShadowCheckpoints.open({ projectRoot: project, gitDir, maxFiles: 41 }))
    const first = value(await roomy.snapshot())
    expect(shadowFiles(roomy, first.commit)).toHaveLength(41)
    await writeFile(join(project, 'many/file3.txt'), 'changed\n')
    const tightAgain = value(await ShadowCheckpoints.open({ projectRoot: project, gitDir, maxFiles: 10 }))
    expect(value(await tightAgain.snapshot()).reused).toBe(false)
  })

  it('restores only the paths given, leaving other changes alone; marks name checkpoints', async () => {
    await writeFiles(project, { 'a.txt': 'a1\n', 'b.txt': 'b1\n' })
    const checkpoints = await openCheckpoints()
    const start = value(await checkpoints.snapshot('start'))
    await writeFiles(project, { 'a.txt': 'a2 by the agent\n', 'c.txt': 'new by the agent\n' })
    const after = value(await checkpoints.snapshotAndMark('turn-1', 'after turn 1'))
    expect(await checkpoints.marked('turn-1')).toBe(after.commit)
    expect(await checkpoints.marked('turn-2')).toBeUndefined()
    expect(value(await checkpoints.changedPaths(start.commit, after.commit)).sort()).toEqual([
      'a.txt',
      'c.txt',
    ])
    // The user edits b.txt and adds d.txt by hand afterwards.
    await writeFiles(project, { 'b.txt': 'b2 by the user\n', 'd.txt': 'mine\n' })
    expect(value(await checkpoints.changedPaths(start.commit)).sort()).toEqual([
      'a.txt',
      'b.txt',
      'c.txt',
      'd.txt',
    ])
    const report = value(await checkpoints.restore(start.commit, { only: ['a.txt', 'c.txt'] }))
    expect(report.changedPaths.sort()).toEqual(['a.txt', 'c.txt'])
    const read = (name: string) => readFile(join(project, name), 'utf8').catch(() => undefined)
    expect([await read('a.txt'), await read('b.txt'), await read('c.txt'), await read('d.txt')]).toEqual([
      'a1\n',
      'b2 by the user\n',
      undefined,
      'mine\n',
    ])
    // The next snapshot sees the tree as it is (the index was not reset to the target).
    const next = value(await checkpoints.snapshot('next'))
    expect(value(await checkpoints.changedPaths(start.commit, next.commit)).sort()).toEqual([
      'b.txt',
      'd.txt',
    ])
    // The restore can be undone from its "before" checkpoint.
    value(await checkpoints.restore(report.before))
    expect([await read('a.txt'), await read('c.txt')]).toEqual(['a2 by the agent\n', 'new by the agent\n'])
    expect((await checkpoints.mark('bad name', start.commit)).ok).toBe(false)
  })

  it('reports unknown checkpoints as errors', async () => {
    const checkpoints = await openCheckpoints()
    expect((await checkpoints.restore('deadbeef')).ok).toBe(false)
    expect((await checkpoints.restore('--help')).ok).toBe(false)
  })
})

describe('ShadowCheckpoints in a git repository', () => {
  beforeEach(async () => {
    await writeFiles(project, {
      '.gitignore': 'node_modules/\n*.log\n',
      'src/app.ts': 'app\n',
      'node_modules/dep/index.js': 'dep\n',
      'debug.log': 'log 1\n',
      'secret.local': 'excluded by info/exclude\n',
    })
    git(project, 'init', '-q')
    await writeFile(join(project, '.git/info/exclude'), '*.local\n')
    // A hook that would leave a mark if anything ran it.
    await writeFile(join(project, '.git/hooks/post-checkout'), '#!/bin/sh\ntouch HOOK-RAN\n')
    await chmod(join(project, '.git/hooks/post-checkout'), 0o755)
    git(project, 'add', '-A')
    git(project, 'commit', '-q', '-m', 'initial')
    await writeFiles(project, {
      'src/app.ts': 'app, edited but not committed\n',
      'untracked.txt': 'untracked\n',
    })
  })

  it('honours .gitignore and info/exclude, captures untracked files, and never touches .git', async () => {
    const dotGitBefore = await dotGitState(project)
    const checkpoints = await openCheckpoints()
    const first = value(await checkpoints.snapshot())
    const files = shadowFiles(checkpoints, first.commit).map((line) => line.split('\t')[1])
    expect(files).toEqual(expect.arrayContaining(['.gitignore', 'README.md', 'src/app.ts', 'untracked.txt']))
    expect(files.some((path) => path?.startsWith('node_modules') || path === 'debug.log')).toBe(false)
    expect(files.some((path) => path === 'secret.local' || path?.startsWith('.git/'))).toBe(false)
    const state = await treeState(project)

    await writeFiles(project, {
      'src/app.ts': 'rewritten\n',
      'added-later.txt': 'remove me on restore\n',
      'debug.log': 'log 2\n',
      'node_modules/dep/new.js': 'new dep file\n',
      'secret.local': 'changed secret\n',
    })
    await unlink(join(project, 'untracked.txt'))
    value(await checkpoints.snapshot())
    value(await checkpoints.restore(first.commit))

    const after = await treeState(project)
    // Ignored files keep their current content; everything else equals the snapshot.
    expect(await readFile(join(project, 'debug.log'), 'utf8')).toBe('log 2\n')
    expect(await readFile(join(project, 'secret.local'), 'utf8')).toBe('changed secret\n')
    expect(await readFile(join(project, 'node_modules/dep/new.js'), 'utf8')).toBe('new dep file\n')
    const ignored = (path: string) =>
      path.startsWith('node_modules/') || path === 'debug.log' || path === 'secret.local'
    const strip = (map: Map<string, string>) => new Map([...map].filter(([path]) => !ignored(path)))
    expect(strip(after)).toEqual(strip(state))
    expect(after.has('HOOK-RAN')).toBe(false)
    expect(await dotGitState(project)).toEqual(dotGitBefore)
    expect(git(project, 'status', '--porcelain')).toContain(' M src/app.ts')
  })

  it('captures a nested repository as files, not as a gitlink, and restores them', async () => {
    const nested = join(project, 'vendor/lib')
    await writeFiles(nested, { 'lib.c': 'int lib;\n', '.gitignore': '*.o\n', 'lib.o': 'object\n' })
    git(nested, 'init', '-q')
    git(nested, 'add', '-A')
    git(nested, 'commit', '-q', '-m', 'nested')
    const empty = join(project, 'fresh')
    await writeFiles(empty, { 'draft.txt': 'not committed anywhere\n' })
    git(empty, 'init', '-q')
    const nestedGitBefore = await dotGitState(nested)
    const outerGitBefore = await dotGitState(project)

    const checkpoints = await openCheckpoints()
    const first = value(await checkpoints.snapshot())
    const entries = shadowFiles(checkpoints, first.commit)
    expect(entries.some((line) => line.startsWith('160000'))).toBe(false)
    const paths = entries.map((line) => line.split('\t')[1])
    expect(paths).toEqual(
      expect.arrayContaining(['vendor/lib/lib.c', 'vendor/lib/.gitignore', 'fresh/draft.txt']),
    )
    expect(paths).not.toContain('vendor/lib/lib.o')
    const state = await treeState(project)

    await writeFiles(nested, { 'lib.c': 'int lib = 2;\n', 'extra.c': 'extra\n' })
    await unlink(join(empty, 'draft.txt'))
    const second = value(await checkpoints.snapshot())
    expect(second.reused).toBe(false)
    expect(shadowFiles(checkpoints, second.commit).join('\n')).toContain('vendor/lib/extra.c')
    value(await checkpoints.restore(first.commit))
    expect(await treeState(project)).toEqual(state)
    expect(await dotGitState(nested)).toEqual(nestedGitBefore)
    expect(await dotGitState(project)).toEqual(outerGitBefore)
  })
})
