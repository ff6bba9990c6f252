import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ModelRequest } from '../src/index.js'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

const isSummaryRequest = (request: ModelRequest) =>
  request.system[0]?.text.startsWith('You summarize') ?? false

/** A home whose user settings shrink the context window so pressure builds in a few rounds. */
function homeWithWindow(tokens: number, keepRecentToolResults?: number): string {
  const home = tempDir('ze-home-')
  mkdirSync(join(home, 'config'), { recursive: true })
  writeFileSync(
    join(home, 'config', 'settings.toml'),
    `[model]\ncontext_window = ${tokens}\n${
      keepRecentToolResults === undefined
        ? ''
        : `\n[context]\nkeep_recent_tool_results = ${keepRecentToolResults}\n`
    }`,
  )
  return home
}

describe('compaction wiring (spec 003 "Compaction")', () => {
  it('clears old tool results above half the window into markers naming their artifact', async () => {
    const project = buggyProject()
    writeFileSync(join(project, 'big.txt'), 'lorem ipsum dolor sit amet\n'.repeat(300))
    let reads = 0
    const t = await engineWith(
      () => {
        reads += 1
        if (reads <= 6)
          return {
            blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'big.txt') } }],
          }
        return { blocks: [{ type: 'text', text: 'done' }] }
      },
      homeWithWindow(12_000, 1),
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'read big.txt until you are sure' })
    await t.waitFor(session, 'turnFinished')
    const last = JSON.stringify(t.client.requests.at(-1)!.messages)
    const marker = /\[cleared[^\]]*?(\/[^\s\]]+artifacts\/[^\s\]]+)/.exec(last)
    expect(marker).not.toBeNull()
    expect(t.events(session, 'compactionStarted')).toHaveLength(0)
    await t.engine.shutdown()
  })

  it('summarizes with the fast model above compact_at_percent and keeps going', async () => {
    const project = buggyProject()
    writeFileSync(join(project, 'big.txt'), 'lorem ipsum dolor sit amet\n'.repeat(300))
    let reads = 0
    const t = await engineWith((request) => {
      if (isSummaryRequest(request))
        return { blocks: [{ type: 'text', text: 'Summary: read big.txt many times.' }] }
      reads += 1
      if (reads <= 8)
        return {
          blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'big.txt') } }],
        }
      return { blocks: [{ type: 'text', text: 'done' }] }
    }, homeWithWindow(12_000))
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'read big.txt until you are sure' })
    const finished = await t.waitFor(session, 'turnFinished')
    expect(finished).toMatchObject({ outcome: { type: 'done' } })
    // Every started compaction finished, and each one made the context smaller.
    const started = t.events(session, 'compactionStarted')
    expect(started.length).toBeGreaterThanOrEqual(1)
    expect(t.events(session, 'compacted')).toHaveLength(started.length)
    // Never on consecutive rounds: after a summary, at least three rounds pass before the next,
    // and the user is told once that the window is too small for the work.
    const summaries = t.client.requests.filter(isSummaryRequest).length
    expect(summaries).toBe(started.length)
    expect(summaries).toBeLessThanOrEqual(3)
    if (summaries > 1) {
      const notices = t.events(session, 'notice').map((event) => (event.type === 'notice' ? event.code : ''))
      expect(notices.filter((code) => code === 'compaction_thrash')).toHaveLength(1)
    }
    const compacted = t.events(session, 'compacted')[0]
    if (compacted?.type !== 'compacted') throw new Error('no compacted event')
    expect(compacted.marker.tokensAfter).toBeLessThan(compacted.marker.tokensBefore)
    // After the summary, requests start with the summary message and stay inside the window.
    const last = t.client.requests.filter((request) => !isSummaryRequest(request)).at(-1)!
    expect(JSON.stringify(last.messages[0])).toContain('Summary: read big.txt many times.')
    // The journal holds the compaction, so a resume sends the same working set.
    const replayed = await t.engine.store.replay(session.id)
    if (!replayed.ok) throw new Error(replayed.error.message)
    expect(JSON.stringify(replayed.value.snapshot.workingSet[0])).toContain(
      'Summary: read big.txt many times.',
    )
    await t.engine.shutdown()
  })

  it('/compact summarizes on demand with the focus in the prompt', async () => {
    const project = buggyProject()
    const summaries: ModelRequest[] = []
    const t = await engineWith((request) => {
      if (isSummaryRequest(request)) {
        summaries.push(request)
        return { blocks: [{ type: 'text', text: 'Summary of the chat.' }] }
      }
      return { blocks: [{ type: 'text', text: 'answer' }] }
    })
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    // Long enough that a summary shrinks it (one that does not is not applied).
    for (const text of ['one', 'two', 'three']) {
      session.send({ type: 'submit', text: `${text}: ${'some context '.repeat(300)}` })
      await session.idle()
    }
    session.send({ type: 'runCommand', name: 'compact', args: 'the failing test' })
    await t.waitFor(session, 'compacted')
    await session.idle()
    expect(summaries).toHaveLength(1)
    expect(JSON.stringify(summaries[0]!.messages)).toContain('the failing test')
    expect(session.busy).toBe(false)
    await t.engine.shutdown()
  })
})
