import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ModelRequest } from '../src/index.js'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

const isSummaryRequest = (request: ModelRequest) =>
  request.system[0]?.text.startsWith('You summarize') ?? false

function homeWithWindow(tokens: number, keepRecent = 1): string {
  const home = tempDir('ze-home-')
  mkdirSync(join(home, 'config'), { recursive: true })
  writeFileSync(
    join(home, 'config', 'settings.toml'),
    `[model]\ncontext_window = ${tokens}\n\n[context]\nkeep_recent_tool_results = ${keepRecent}\n`,
  )
  return home
}

const firstText = (request: ModelRequest) => JSON.stringify(request.messages[0]?.content ?? [])

describe('context relief (spec 003 "Compaction")', () => {
  it('subagents compact like the main agent: their working set is relieved, their transcript kept whole', async () => {
    const project = buggyProject()
    writeFileSync(join(project, 'big.txt'), 'lorem ipsum dolor sit amet\n'.repeat(300))
    let subReads = 0
    let mainCalls = 0
    const t = await engineWith((request) => {
      if (isSummaryRequest(request)) return { blocks: [{ type: 'text', text: 'Summary: read big.txt.' }] }
      if (firstText(request).includes('SUBTASK')) {
        subReads += 1
        if (subReads <= 6)
          return {
            blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'big.txt') } }],
          }
        return { blocks: [{ type: 'text', text: 'big.txt is lorem ipsum.' }] }
      }
      mainCalls += 1
      if (mainCalls === 1)
        return {
          blocks: [
            {
              type: 'tool_use',
              name: 'Agent',
              input: { description: 'read big', prompt: 'SUBTASK: read big.txt', subagent_type: 'general' },
            },
          ],
        }
      return { blocks: [{ type: 'text', text: 'done' }] }
    }, homeWithWindow(12_000))
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'delegate reading big.txt' })
    const finished = await t.waitFor(session, 'turnFinished')
    expect(finished).toMatchObject({ outcome: { type: 'done' } })
    const subRequests = t.client.requests.filter((request) => firstText(request).includes('SUBTASK'))
    expect(subRequests.length).toBeGreaterThanOrEqual(7)
    // Its old Read results became markers naming their artifact (before: the transcript only grew).
    expect(JSON.stringify(subRequests.at(-1)!.messages)).toMatch(/\[cleared: \d+ characters of Read output/)
    // Its recorded messages (what agents/<id>.jsonl stores) keep every result word for word.
    const recorded = t.envelopes.filter(
      (envelope) => envelope.agentId !== undefined && envelope.event.type === 'messageRecorded',
    )
    expect(recorded.length).toBeGreaterThanOrEqual(13)
    expect(JSON.stringify(recorded)).not.toContain('[cleared')
    await t.engine.shutdown()
  })

  it('loaded skills survive a summary: their instructions are carried word for word', async () => {
    const project = buggyProject()
    writeFileSync(join(project, 'big.txt'), 'lorem ipsum dolor sit amet\n'.repeat(300))
    mkdirSync(join(project, '.z-engine', 'skills', 'release'), { recursive: true })
    writeFileSync(
      join(project, '.z-engine', 'skills', 'release', 'SKILL.md'),
      '---\nname: release\ndescription: How to cut a release\n---\nRun the release checklist: tag, then publish.\n',
    )
    let calls = 0
    const t = await engineWith(
      (request) => {
        if (isSummaryRequest(request))
          return { blocks: [{ type: 'text', text: 'Summary: loaded release, read big.txt.' }] }
        calls += 1
        if (calls === 1) return { blocks: [{ type: 'tool_use', name: 'Skill', input: { skill: 'release' } }] }
        if (calls <= 9)
          return {
            blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'big.txt') } }],
          }
        return { blocks: [{ type: 'text', text: 'done' }] }
      },
      homeWithWindow(12_000, 8),
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'release, reading big.txt first' })
    await t.waitFor(session, 'turnFinished')
    expect(t.events(session, 'compacted').length).toBeGreaterThanOrEqual(1)
    const last = t.client.requests.filter((request) => !isSummaryRequest(request)).at(-1)!
    const summary = JSON.stringify(last.messages[0])
    expect(summary).toContain('[Summary of earlier conversation]')
    expect(summary).toContain('<loaded-skill name=\\"release\\">')
    expect(summary).toContain('Run the release checklist: tag, then publish.')
    await t.engine.shutdown()
  })

  it('compaction uses the provider-reported usage when present, not only local estimates', async () => {
    const run = async (reportedInput: number) => {
      let calls = 0
      const t = await engineWith((request) => {
        if (isSummaryRequest(request)) return { blocks: [{ type: 'text', text: 'Summary: listed files.' }] }
        calls += 1
        if (calls <= 2)
          return {
            blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'ls' } }],
            usage: { inputTokens: reportedInput, outputTokens: 20 },
          }
        return { blocks: [{ type: 'text', text: 'done' }] }
      }, homeWithWindow(100_000))
      const session = await t.engine.openSession({
        projectRoot: buggyProject(),
        model: 'scripted:x',
        mode: 'bypass',
      })
      session.send({ type: 'submit', text: 'list the files' })
      await t.waitFor(session, 'turnFinished')
      const started = t.events(session, 'compactionStarted').length
      await t.engine.shutdown()
      return started
    }
    // The local estimate of this short conversation is far below 92% of 100,000 tokens; the
    // provider says the prompt is 95,000 tokens (e.g. a large cached system prompt), so it compacts.
    expect(await run(95_000)).toBeGreaterThanOrEqual(1)
    expect(await run(10)).toBe(0)
  })
})
