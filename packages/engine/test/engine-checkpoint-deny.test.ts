/**
 * Issue 13 "File hygiene": checkpoints skip files under Read deny rules. A session whose settings
 * deny `Read(.env)` and `Read(secrets/**)` never copies them into the checkpoint store, and a
 * rewind restores the project around them, leaving them exactly as they are.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

describe('checkpoints and Read deny rules', () => {
  it('keeps denied files out of every checkpoint object and leaves them alone on rewind', async () => {
    const project = buggyProject()
    writeFileSync(join(project, '.env'), 'API_TOKEN=checkpoint-deny-first\n')
    mkdirSync(join(project, 'secrets'))
    writeFileSync(join(project, 'secrets', 'deploy.key'), 'KEY=checkpoint-deny-key\n')
    const home = tempDir('ze-home-')
    mkdirSync(join(home, 'config'))
    writeFileSync(
      join(home, 'config', 'settings.toml'),
      '[permissions]\ndeny = ["Read(.env)", "Read(secrets/**)"]\n',
    )
    const write = (content: string) => ({
      blocks: [
        {
          type: 'tool_use' as const,
          name: 'Write',
          input: { file_path: join(project, 'notes.txt'), content },
        },
      ],
    })
    const t = await engineWith(
      [
        write('first\n'),
        { blocks: [{ type: 'text', text: 'Wrote it.' }] },
        write('second\n'),
        { blocks: [{ type: 'text', text: 'Wrote it again.' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Write notes.' })
    await t.waitFor(session, 'turnFinished')
    // Between turns the user changes the denied files; the second checkpoint sees them changed.
    writeFileSync(join(project, '.env'), 'API_TOKEN=checkpoint-deny-second\n')
    writeFileSync(join(project, 'secrets', 'new.key'), 'KEY=checkpoint-deny-new\n')
    session.send({ type: 'submit', text: 'Write notes again.' })
    await t.waitFor(session, 'turnFinished', 2)
    const checkpoints = t.events(session, 'checkpointCreated')
    expect(checkpoints).toHaveLength(2)

    const shadow = join(home, 'data', 'checkpoints')
    const [repo] = readdirSync(shadow)
    const gitDir = join(shadow, repo!)
    const gitIn = (...args: string[]) =>
      execFileSync('git', ['--git-dir', gitDir, ...args], { encoding: 'latin1', maxBuffer: 1 << 26 })
    for (const event of checkpoints) {
      if (event.type !== 'checkpointCreated') continue
      const files = gitIn('ls-tree', '-r', '--name-only', '--full-tree', event.checkpoint.commit)
      expect(files).toContain('math.js')
      expect(files).not.toMatch(/\.env|secrets\//)
    }
    const objects = gitIn('cat-file', '--batch-all-objects', '--batch')
    expect(objects).toContain('first\n')
    expect(objects).not.toContain('checkpoint-deny')

    // Rewind to before the first message: notes.txt goes, the denied files stay as they are now.
    const first = checkpoints[0]
    if (first?.type !== 'checkpointCreated') throw new Error('no checkpoint')
    session.send({ type: 'rewind', messageId: first.checkpoint.messageId, scope: 'code' })
    const rewound = await t.waitFor(session, 'rewound')
    await t.engine.shutdown()
    expect(rewound).toMatchObject({ restoredFiles: ['notes.txt'] })
    expect(readdirSync(project)).not.toContain('notes.txt')
    expect(readFileSync(join(project, '.env'), 'utf8')).toBe('API_TOKEN=checkpoint-deny-second\n')
    expect(readFileSync(join(project, 'secrets', 'deploy.key'), 'utf8')).toBe('KEY=checkpoint-deny-key\n')
    expect(readFileSync(join(project, 'secrets', 'new.key'), 'utf8')).toBe('KEY=checkpoint-deny-new\n')
  })
})
