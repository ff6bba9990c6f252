/**
 * Issue 40 "exit ≤ 50 ms after the final request": the after-turn checkpoint's staging overlaps the
 * model's answer. Once a batch wrote files, the next request's wait stages the tree; when that
 * answer ends the turn, its snapshot runs one git process (`ls-files`: nothing changed since), not
 * three, and records the same tree, with the agent's edit in it.
 */
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ModelRequest } from '../src/index.js'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

async function until(condition: () => boolean): Promise<void> {
  // A ceiling for a loaded machine: it returns as soon as the condition holds.
  const deadline = Date.now() + 90_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

describe('the after-turn checkpoint staged during the last request', () => {
  it('leaves one git process between the final answer and turnFinished, and records the edit', async () => {
    const project = buggyProject()
    const home = tempDir('ze-home-')
    // A git on PATH that logs each command: the test counts processes, not milliseconds.
    const bin = join(home, 'bin')
    mkdirSync(bin)
    const log = join(home, 'git.log')
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim()
    writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`)
    chmodSync(join(bin, 'git'), 0o755)
    const lines = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : [])
    let beforeAnswer = 0
    const math = join(project, 'math.js')
    const script = async (_request: ModelRequest, index: number) => {
      if (index === 0)
        return { blocks: [{ type: 'tool_use' as const, name: 'Read', input: { file_path: math } }] }
      if (index === 1)
        return {
          blocks: [
            {
              type: 'tool_use' as const,
              name: 'Edit',
              input: { file_path: math, old_string: 'a - b', new_string: 'a + b' },
            },
          ],
        }
      // The answer comes once the tree is staged (the test decides the model is the slower one).
      await until(staged)
      beforeAnswer = lines().length
      return { blocks: [{ type: 'text' as const, text: 'Fixed.' }] }
    }
    // Staged: a second add (the first is the checkpoint before the turn, capturing the new
    // project) and the tree written after it.
    const staged = () => {
      const all = lines()
      const adds = all.filter((line) => line.includes(' add ')).length
      const add = all.findLastIndex((line) => line.includes(' add '))
      return adds >= 2 && all.slice(add).some((line) => line.includes('write-tree'))
    }
    const t = await engineWith(script, home, {
      env: { PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: home },
    })
    const session = await t.engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Fix the bug.' })
    expect(await t.waitFor(session, 'turnFinished')).toMatchObject({
      outcome: { type: 'done' },
      mutated: true,
    })
    await t.engine.shutdown()
    const after = lines().slice(beforeAnswer)
    expect(after).toHaveLength(1)
    expect(after[0]).toContain('ls-files')
    // The checkpoint the turn ended with holds the edit.
    const shadow = join(home, 'data', 'checkpoints')
    const gitDir = join(shadow, execFileSync('ls', [shadow], { encoding: 'utf8' }).trim())
    const marks = execFileSync(
      realGit,
      ['--git-dir', gitDir, 'for-each-ref', '--format=%(refname)', 'refs/z-engine/marks/'],
      {
        encoding: 'utf8',
      },
    ).trim()
    expect(marks).toMatch(/after-/)
    expect(
      execFileSync(realGit, ['--git-dir', gitDir, 'show', `${marks}:math.js`], { encoding: 'utf8' }),
    ).toContain('a + b')
  })
})
