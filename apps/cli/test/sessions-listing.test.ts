import { Engine } from '@z-engine/engine'
import { describe, expect, it } from 'vitest'
import {
  formatSessionRows,
  listSessionRows,
  relativeTime,
  shortestUniquePrefix,
} from '../src/sessions/session-listing.js'
import { runInProcess, sandbox } from './helpers.js'

describe('sessions: titles, no empty sessions, id prefixes, --resume without an id', () => {
  it('titles a session after its first prompt; a session opened and closed with no turn is not kept', async () => {
    const box = await sandbox()
    const script = await box.script('ok.jsonl', [{ blocks: [{ type: 'text', text: 'ok' }] }])
    const run = await runInProcess(
      [
        'exec',
        '--model',
        `scripted:${script}`,
        '--output-format',
        'json',
        'fix the failing\n\nlogin test please',
      ],
      { cwd: box.project, env: box.env },
    )
    expect(run.code, run.stderr).toBe(0)
    const id = (JSON.parse(run.stdout) as { session_id: string }).session_id

    const engine = await Engine.create({ env: box.env })
    const empty = await engine.openSession({ projectRoot: box.project, model: `scripted:${script}` })
    await empty.close()
    const listed = await engine.listSessions(box.project)
    expect(listed.map((session) => session.sessionId)).toEqual([id])
    expect(listed[0]?.title).toBe('fix the failing')
    // A resumed session opened and closed without a turn stays (it has its history).
    const resumed = await engine.openSession({ projectRoot: box.project, resume: id.slice(0, 8) })
    expect(resumed.id).toBe(id)
    await resumed.close()
    expect((await engine.listSessions(box.project)).map((session) => session.sessionId)).toEqual([id])
    await engine.shutdown()

    const list = await runInProcess(['sessions', 'list'], { cwd: box.project, env: box.env })
    expect(list.stdout).toMatch(new RegExp(`^${id.slice(0, 8)}\\s+just now\\s+fix the failing\\n$`))
  })

  it('takes a unique id prefix everywhere an id goes; an ambiguous or unknown one says so', async () => {
    const box = await sandbox()
    const script = await box.script('two.jsonl', [
      { blocks: [{ type: 'text', text: 'one' }] },
      { blocks: [{ type: 'text', text: 'two' }] },
    ])
    const first = await runInProcess(
      ['exec', '--model', `scripted:${script}`, '--output-format', 'json', 'first'],
      { cwd: box.project, env: box.env },
    )
    const id = (JSON.parse(first.stdout) as { session_id: string }).session_id
    const prefix = id.slice(0, 6)
    const shown = await runInProcess(['sessions', 'show', prefix], { cwd: box.project, env: box.env })
    expect(shown.code, shown.stderr).toBe(0)
    expect(shown.stdout).toContain(`session  ${id}`)
    const resumed = await runInProcess(
      ['exec', '--model', `scripted:${script}`, '--output-format', 'json', '--resume', prefix, 'second'],
      { cwd: box.project, env: box.env },
    )
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(JSON.parse(resumed.stdout)).toMatchObject({ session_id: id })
    const unknown = await runInProcess(['sessions', 'show', 'zzzz'], { cwd: box.project, env: box.env })
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain("No stored session has an id starting 'zzzz'")
    const ambiguous = await runInProcess(['sessions', 'show', ''], { cwd: box.project, env: box.env })
    expect(ambiguous.code).not.toBe(0)
  })

  it('--resume without an id and no terminal lists the project sessions and asks for one', async () => {
    const box = await sandbox()
    const script = await box.script('ok.jsonl', [{ blocks: [{ type: 'text', text: 'ok' }] }])
    const made = await runInProcess(
      ['exec', '--model', `scripted:${script}`, '--output-format', 'json', 'remember kiwi'],
      { cwd: box.project, env: box.env },
    )
    const id = (JSON.parse(made.stdout) as { session_id: string }).session_id
    for (const argv of [['--resume'], ['exec', '--resume'], ['--resume', '--model', 'sonnet']]) {
      const run = await runInProcess(argv, { cwd: box.project, env: box.env })
      expect(run.code, argv.join(' ')).toBe(2)
      expect(run.stderr).toContain('--resume needs a session id here')
      expect(run.stderr).toContain(`${id.slice(0, 8)}  just now  remember kiwi`)
      expect(run.stderr).toMatch(/Rerun with one of them: z-engine (exec )?--resume [0-9a-f]{8}/)
    }
  })

  it('the listing model: shortest unique prefixes, relative times, other projects marked', () => {
    expect(shortestUniquePrefix('abcdef1234', ['abcdef1234', 'abcdef1299'])).toBe('abcdef123')
    expect(shortestUniquePrefix('abcdef1234', ['abcdef1234', 'ffff'])).toBe('abcdef12')
    const now = new Date('2026-12-01T12:00:00Z')
    expect(relativeTime('2026-12-01T11:55:00Z', now)).toBe('5 minutes ago')
    expect(relativeTime('2026-11-30T11:00:00Z', now)).toBe('yesterday')
    expect(relativeTime('2026-10-01T11:00:00Z', now)).toBe('2026-10-01')
    expect(
      formatSessionRows([
        {
          sessionId: 'abcdef1234',
          shortId: 'abcdef12',
          title: 'elsewhere',
          projectRoot: '/other',
          inProject: false,
          lastActivity: '',
          when: 'yesterday',
        },
      ]),
    ).toEqual(['abcdef12  yesterday  elsewhere  (/other)'])
  })
})

describe('listSessionRows', () => {
  it("lists the project's sessions first, then with all every other project's", async () => {
    const rows = await listSessionRows(
      {
        listSessions: async () => [
          {
            sessionId: 'b1',
            projectRoot: '/b',
            createdAt: '',
            lastActivity: '2026-12-01T12:00:00Z',
            sizeBytes: 1,
          },
          {
            sessionId: 'a1',
            projectRoot: '/a',
            createdAt: '',
            lastActivity: '2026-12-01T11:00:00Z',
            sizeBytes: 1,
          },
        ],
      },
      '/a',
      { all: true, now: new Date('2026-12-01T12:00:00Z') },
    )
    expect(rows.map((row) => [row.sessionId, row.inProject])).toEqual([
      ['a1', true],
      ['b1', false],
    ])
  })
})
