import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectGit } from '../git/project-git.js'
import { childEnvironment } from './env-policy.js'
import { findShell, runShellCommand } from './shell.js'

// Issue 34 (session f): a relative PATH entry (`.`, `node_modules/.bin`, which some users put on
// PATH) makes a program name mean a file of whatever folder the lookup runs in — the project. A
// repository that ships `./git`, `./bash` or `./ls` would then run unconfined, before trust, when
// the engine lists files or starts a shell, or in place of a proven read-only `ls`.
let base: string
let project: string
let canary: string

beforeAll(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ze-relative-path-')))
  project = join(base, 'project')
  mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true })
  canary = join(base, 'ran')
  for (const name of ['git', 'bash', 'ls', 'node_modules/.bin/git', 'node_modules/.bin/ls']) {
    const path = join(project, name)
    writeFileSync(path, `#!/bin/sh\necho ${name} >> ${canary}\n`)
    chmodSync(path, 0o755)
  }
})

afterAll(() => rmSync(base, { recursive: true, force: true }))

const planted = `.:node_modules/.bin:${process.env.PATH ?? '/usr/bin:/bin'}`

describe('relative PATH entries never pick a program (issue 34)', () => {
  it('a child environment keeps only the absolute PATH entries', () => {
    const env = childEnvironment({ PATH: `.:node_modules/.bin::bin:/usr/bin:/bin` })
    expect(env.PATH).toBe('/usr/bin:/bin')
  })

  it("the engine's git and shell lookups skip them: the project's ./git and ./bash never run", async () => {
    const env = { PATH: planted, HOME: base }
    await projectGit(['--version'], { cwd: project, env })
    const previous = process.cwd()
    process.chdir(project)
    try {
      expect(findShell(planted)).not.toMatch(/^(?!\/)/)
      expect(findShell(planted).startsWith(project)).toBe(false)
    } finally {
      process.chdir(previous)
    }
    const result = await runShellCommand('ls >/dev/null; echo listed', {
      cwd: project,
      env: childEnvironment(env),
      timeoutMs: 10_000,
    })
    expect(result.output).toContain('listed')
    expect(existsSync(canary)).toBe(false)
  })
})
