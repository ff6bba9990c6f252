import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkPermission } from './check-permission.js'
import { pathFactsOnDisk, repositoryOnDisk } from './path-facts.js'

// Issue 12 finding 9 through the same decision a session makes (checkPermission builds the
// policy context like the session gate, with real-path facts read from this disk).

let base: string
let project: string
let home: string

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ze-facts-')))
  project = join(base, 'project')
  home = join(base, 'home')
  mkdirSync(join(home, '.ssh'), { recursive: true })
  writeFileSync(join(home, '.ssh', 'id_rsa'), 'KEY')
  writeFileSync(join(home, '.bashrc'), '')
  mkdirSync(project)
  execFileSync('git', ['init', '-q'], { cwd: project })
  execFileSync('git', ['config', 'core.hooksPath', '.githooks'], { cwd: project })
  // What a hostile repository ships.
  symlinkSync(home, join(project, 'lnk'))
  symlinkSync(join(home, '.bashrc'), join(project, 'rc'))
  symlinkSync('.git', join(project, 'g'))
  symlinkSync('.env', join(project, 'secret'))
  writeFileSync(join(project, '.env'), 'TOKEN=1')
  mkdirSync(join(project, 'evil'))
  for (const dir of ['objects', 'refs']) mkdirSync(join(project, 'evil', dir))
  writeFileSync(join(project, 'evil', 'HEAD'), 'ref: refs/heads/main\n')
})
afterAll(() => rmSync(base, { recursive: true, force: true }))

function check(tool: string, input: Record<string, unknown>, mode = 'default', rules = {}) {
  const result = checkPermission({ tool, input, mode, rules, cwd: project, home })
  if (!result.ok) throw new Error(result.error)
  return result
}

describe('real paths as facts (spec 001 permissions, issue 12)', () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    ['Read', { file_path: 'lnk/.ssh/id_rsa' }, 'default', 'ask'],
    ['Read', { file_path: 'lnk/.ssh/id_rsa' }, 'acceptEdits', 'ask'],
    ['Grep', { pattern: 'KEY', path: 'lnk/.ssh' }, 'default', 'ask'],
    ['Glob', { pattern: '*', path: 'lnk' }, 'default', 'ask'],
    ['Write', { file_path: 'rc', content: 'x' }, 'acceptEdits', 'ask'],
    ['Edit', { file_path: 'rc', old_string: '', new_string: 'x' }, 'plan', 'deny'],
    ['Edit', { file_path: 'g/hooks/pre-commit', old_string: '', new_string: 'x' }, 'acceptEdits', 'ask'],
    ['Write', { file_path: 'g/config', content: 'x' }, 'acceptEdits', 'ask'],
    ['Write', { file_path: '.githooks/pre-push', content: 'x' }, 'acceptEdits', 'ask'],
    ['Write', { file_path: '.husky/pre-commit', content: 'x' }, 'acceptEdits', 'ask'],
    ['Write', { file_path: '.claude/agents/x.md', content: 'x' }, 'acceptEdits', 'ask'],
    ['Write', { file_path: 'src/new.ts', content: 'x' }, 'acceptEdits', 'allow'],
    ['Read', { file_path: 'src/a.ts' }, 'default', 'allow'],
  ])('%s %j in %s → %s', (tool, input, mode, expected) => {
    expect(check(tool, input, mode).decision).toBe(expected)
  })

  it('a deny rule holds through a link to the denied file, in bypass too', () => {
    expect(check('Read', { file_path: 'secret' }, 'bypass', { deny: ['Read(./.env)'] }).decision).toBe('deny')
  })

  it('explains the real path it decided on', () => {
    const result = check('Read', { file_path: 'lnk/.ssh/id_rsa' })
    expect(result.reason).toContain(`${home}/.ssh/id_rsa`)
  })
})

describe('pathFactsOnDisk', () => {
  it('reads the hooks folder git runs, and repositories', () => {
    const facts = pathFactsOnDisk(project)
    expect(facts.hooksPath).toBe(join(project, '.githooks'))
    expect(facts.repositoryOf?.(join(project, 'src'))).toBe(project)
    expect(repositoryOnDisk(join(project, 'evil'))).toBe(join(project, 'evil'))
    expect(repositoryOnDisk(home)).toBeUndefined()
  })

  it('reports every real path it resolved, for the tools to compare at open time', () => {
    const facts = pathFactsOnDisk(project)
    facts.realPath(join(project, 'rc'))
    facts.realPath(join(project, 'new', 'file'))
    expect(facts.resolved()).toEqual({
      [join(project, 'rc')]: join(home, '.bashrc'),
      [join(project, 'new', 'file')]: join(project, 'new', 'file'),
    })
  })
})
