import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildRuleSet, type PolicyContext, readDenied } from '@z-engine/policy'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadInstructions, loadNestedInstructions } from './instructions-load.js'

// Issue 34 class 4: `@imports` in AGENTS.md/CLAUDE.md never load a file a Read deny rule covers —
// imported directly, through a folder the rule covers, or through a symlink — and say so.
let base: string
let project: string
let home: string
let denied: (path: string) => boolean

beforeEach(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), 'ze-instr-deny-')))
  project = join(base, 'project')
  home = join(base, 'home')
  await mkdir(join(project, '.git'), { recursive: true })
  await mkdir(join(project, 'secrets'), { recursive: true })
  await mkdir(join(project, 'sub'), { recursive: true })
  await mkdir(home, { recursive: true })
  await writeFile(join(project, '.env'), 'TOKEN=sk-live-ENVSECRET')
  await writeFile(join(project, 'secrets', 'key.md'), 'FOLDERSECRET')
  await symlink(join(project, '.env'), join(project, 'notes.md'))
  await writeFile(join(project, 'ok.md'), 'ordinary notes')
  const context: PolicyContext = {
    mode: 'default',
    rules: buildRuleSet([{ source: 'test', deny: ['Read(./.env)', 'Read(./secrets/**)'] }]),
    projectRoot: project,
    additionalDirectories: [],
    home,
  }
  denied = (path) => readDenied(path, context)
})
afterEach(() => rm(base, { recursive: true, force: true }))

describe('instruction imports and deny rules (issue 34)', () => {
  it('skips a deny-ruled import (directly, in a denied folder, through a symlink) with a warning', async () => {
    await writeFile(join(project, 'AGENTS.md'), 'Read these:\n@.env\n@secrets/key.md\n@notes.md\n@ok.md\n')
    const loaded = await loadInstructions({
      projectRoot: project,
      home,
      userFiles: false,
      isReadDenied: denied,
    })
    const text = loaded.files.map((file) => file.content).join('\n')
    expect(text).not.toContain('ENVSECRET')
    expect(text).not.toContain('FOLDERSECRET')
    expect(text).toContain('ordinary notes')
    expect(loaded.warnings.filter((warning) => warning.includes('a Read deny rule covers'))).toHaveLength(3)
    expect(loaded.warnings.join('\n')).toContain('it leads to')
  })

  it('without the gate the same imports load (so the test means something)', async () => {
    await writeFile(join(project, 'AGENTS.md'), '@.env\n@secrets/key.md\n')
    const loaded = await loadInstructions({ projectRoot: project, home, userFiles: false })
    const text = loaded.files.map((file) => file.content).join('\n')
    expect(text).toContain('ENVSECRET')
    expect(text).toContain('FOLDERSECRET')
  })

  it('nested instruction files are held to the same rules', async () => {
    await writeFile(join(project, 'sub', 'CLAUDE.md'), '@../.env\n')
    const nested = await loadNestedInstructions({
      root: project,
      folders: ['sub'],
      home,
      isReadDenied: denied,
    })
    expect(nested.files.map((file) => file.content).join('\n')).not.toContain('ENVSECRET')
    expect(nested.warnings.join('\n')).toContain('a Read deny rule covers')
  })
})
