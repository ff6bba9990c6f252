/**
 * Checkpoints skip files under Read deny rules (issue 13, "File hygiene"): a denied file never
 * reaches the shadow repository's objects, and restoring a checkpoint leaves it as it is.
 */
import { execFileSync } from 'node:child_process'
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { checkpointRepoDir } from './checkpoint-paths.js'
import type { CheckpointResult } from './checkpoint-types.js'
import { ShadowCheckpoints } from './shadow-checkpoints.js'
import { git, writeFiles } from './test-tree.js'

let scratch: string
let project: string
let gitDir: string

beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'z-ckpt-exclude-'))
  project = join(scratch, 'project')
  gitDir = checkpointRepoDir(join(scratch, 'data'), project)
})

afterEach(async () => {
  await rm(scratch, { recursive: true, force: true })
})

function value<T>(result: CheckpointResult<T>): T {
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`)
  return result.value
}

/** Like `Read(.env)` and `Read(secrets/**)`: `.env` at any depth, anything under `secrets/`. */
const denied = (path: string) => path === '.env' || path.endsWith('/.env') || path.startsWith('secrets/')

async function open(exclude?: (path: string) => boolean): Promise<ShadowCheckpoints> {
  return value(
    await ShadowCheckpoints.open({ projectRoot: project, gitDir, ...(exclude ? { exclude } : {}) }),
  )
}

/** Every object in the shadow repository, contents included, as one string. */
function allObjects(): string {
  return execFileSync('git', ['--git-dir', gitDir, 'cat-file', '--batch-all-objects', '--batch'], {
    encoding: 'latin1',
    maxBuffer: 64 * 1024 * 1024,
  })
}

function filesOf(commit: string): string[] {
  return execFileSync('git', ['--git-dir', gitDir, 'ls-tree', '-r', '--name-only', '--full-tree', commit], {
    encoding: 'utf8',
  })
    .split('\n')
    .filter((line) => line !== '')
}

it('never copies denied files into any checkpoint object, nested repositories included', async () => {
  await writeFiles(project, {
    'src/app.ts': 'one\n',
    '.env': 'TOKEN=first-secret-value\n',
    'secrets/key.pem': 'PEM-first-secret\n',
    'vendor/lib/index.js': 'lib\n',
    'vendor/lib/.env': 'NESTED=nested-secret-value\n',
  })
  git(join(project, 'vendor/lib'), 'init', '-q')
  const checkpoints = await open(denied)
  const first = value(await checkpoints.snapshot())
  await writeFile(join(project, '.env'), 'TOKEN=second-secret-value\n')
  await writeFile(join(project, 'secrets/other.pem'), 'PEM-second-secret\n')
  await writeFile(join(project, 'src/app.ts'), 'two\n')
  const second = value(await checkpoints.snapshot())
  expect(filesOf(first.commit)).toEqual(['src/app.ts', 'vendor/lib/index.js'])
  expect(filesOf(second.commit)).toEqual(['src/app.ts', 'vendor/lib/index.js'])
  const objects = allObjects()
  expect(objects).toContain('two\n')
  for (const secret of ['first-secret-value', 'second-secret-value', 'nested-secret-value', 'PEM-'])
    expect(objects).not.toContain(secret)
  // The shadow index holds none of them either (a later checkpoint cannot pick them up).
  const indexed = execFileSync('git', ['--git-dir', gitDir, '--work-tree', project, 'ls-files'], {
    encoding: 'utf8',
  })
  expect(indexed).not.toMatch(/\.env|secrets\//)
})

it('restores around denied files: neither deleted, reverted nor created', async () => {
  await writeFiles(project, { 'src/app.ts': 'one\n', '.env': 'TOKEN=old\n' })
  const checkpoints = await open(denied)
  const first = value(await checkpoints.snapshot())
  await writeFile(join(project, 'src/app.ts'), 'two\n')
  await writeFile(join(project, '.env'), 'TOKEN=new\n')
  await writeFiles(project, { 'secrets/added.pem': 'added later\n' })
  const restored = value(await checkpoints.restore(first.commit))
  expect(restored.changedPaths).toEqual(['src/app.ts'])
  expect(await readFile(join(project, 'src/app.ts'), 'utf8')).toBe('one\n')
  expect(await readFile(join(project, '.env'), 'utf8')).toBe('TOKEN=new\n')
  expect(await readFile(join(project, 'secrets/added.pem'), 'utf8')).toBe('added later\n')
})

it('drops a file captured before its rule existed and never restores or previews it', async () => {
  await writeFiles(project, { 'src/app.ts': 'one\n', '.env': 'TOKEN=captured-before-the-rule\n' })
  const old = value(await (await open()).snapshot())
  expect(filesOf(old.commit)).toContain('.env')
  await writeFile(join(project, '.env'), 'TOKEN=current\n')
  await writeFile(join(project, 'src/app.ts'), 'two\n')
  const checkpoints = await open(denied)
  const now = value(await checkpoints.snapshot())
  expect(filesOf(now.commit)).toEqual(['src/app.ts'])
  const preview = value(await checkpoints.previewRestore(old.commit))
  expect(preview.files).toEqual([{ status: 'modified', path: 'src/app.ts' }])
  expect(preview.patch).not.toContain('TOKEN')
  const diff = value(await checkpoints.diff(now.commit, old.commit))
  expect(diff.files.map((file) => file.path)).toEqual(['src/app.ts'])
  expect(diff.patch).not.toContain('TOKEN')
  value(await checkpoints.restore(old.commit))
  expect(await readFile(join(project, 'src/app.ts'), 'utf8')).toBe('one\n')
  expect(await readFile(join(project, '.env'), 'utf8')).toBe('TOKEN=current\n')
  // The next checkpoint after that restore still leaves it out.
  await writeFile(join(project, 'src/app.ts'), 'three\n')
  expect(filesOf(value(await checkpoints.snapshot()).commit)).toEqual(['src/app.ts'])
})

it('lists the index once per instance, yet drops a file whose rule appears mid-session', async () => {
  await writeFiles(project, { 'src/app.ts': 'one\n', 'notes/plan.md': 'plan\n' })
  // A git wrapper that logs each command line.
  const log = join(scratch, 'git.log')
  const wrapper = join(scratch, 'git-log.sh')
  await writeFile(wrapper, `#!/bin/sh\necho "$*" >> '${log}'\nexec git "$@"\n`)
  await chmod(wrapper, 0o755)
  let rules: (path: string) => boolean = denied
  const checkpoints = value(
    await ShadowCheckpoints.open({
      projectRoot: project,
      gitDir,
      gitPath: wrapper,
      exclude: (path) => rules(path),
    }),
  )
  const lsFiles = async () =>
    (await readFile(log, 'utf8')).split('\n').filter((line) => / ls-files /.test(` ${line} `)).length
  value(await checkpoints.snapshot())
  // One listing of changes and one of the index on the first pass.
  expect(await lsFiles()).toBe(2)
  await writeFile(join(project, 'src/app.ts'), 'two\n')
  value(await checkpoints.snapshot())
  expect(await lsFiles()).toBe(3)
  // A rule added mid-session: the next snapshot drops what it now covers, with no extra listing.
  rules = (path) => denied(path) || path.startsWith('notes/')
  const after = value(await checkpoints.snapshot())
  expect(filesOf(after.commit)).toEqual(['src/app.ts'])
  expect(await lsFiles()).toBe(4)
  // Another process rewrote the index: listed again.
  execFileSync('git', ['--git-dir', gitDir, '--work-tree', project, 'read-tree', after.commit])
  await writeFile(join(project, 'src/app.ts'), 'three\n')
  value(await checkpoints.snapshot())
  expect(await lsFiles()).toBe(6)
})

it('asks nothing of the index while no rule can exclude a path, and drops covered files once one can', async () => {
  await writeFiles(project, { 'src/app.ts': 'one\n', '.env': 'TOKEN=secret\n' })
  const log = join(scratch, 'git.log')
  const wrapper = join(scratch, 'git-wrapper.sh')
  await writeFile(wrapper, `#!/bin/sh\necho "$*" >> '${log}'\nexec git "$@"\n`)
  await chmod(wrapper, 0o755)
  let anyRule = false
  const asked: string[] = []
  const checkpoints = value(
    await ShadowCheckpoints.open({
      projectRoot: project,
      gitDir,
      gitPath: wrapper,
      exclude: (path) => {
        asked.push(path)
        return denied(path)
      },
      excludesAny: () => anyRule,
    }),
  )
  const lsFiles = async () =>
    (await readFile(log, 'utf8')).split('\n').filter((line) => / ls-files /.test(` ${line} `)).length
  const first = value(await checkpoints.snapshot())
  // No rule: only the listing of changes; the index is not listed and no path is asked about.
  expect(await lsFiles()).toBe(1)
  expect(asked).toEqual([])
  expect(filesOf(first.commit)).toEqual(['.env', 'src/app.ts'])
  // A rule appears mid-session: the file it covers leaves the next snapshot.
  anyRule = true
  const second = value(await checkpoints.snapshot())
  expect(filesOf(second.commit)).toEqual(['src/app.ts'])
  expect(asked).toContain('.env')
})
