import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, expect, it } from 'vitest'
import { ShadowCheckpoints } from './shadow-checkpoints.js'

const root = mkdtempSync(join(tmpdir(), 'ze-ckpt-modes-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

it('creates the shadow repository 0700, parents included (checkpoints hold the project files)', async () => {
  const project = join(root, 'project')
  mkdirSync(project)
  writeFileSync(join(project, 'a.txt'), 'a')
  const gitDir = join(root, 'data', 'checkpoints', 'p1')
  const opened = await ShadowCheckpoints.open({ projectRoot: project, gitDir })
  expect(opened.ok).toBe(true)
  for (const dir of [join(root, 'data'), join(root, 'data', 'checkpoints'), gitDir])
    expect(statSync(dir).mode & 0o777, dir).toBe(0o700)
})
