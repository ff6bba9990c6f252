/**
 * screen_request covers subagents (spec 000 "One round", step 3): a subagent's new tool results are
 * screened before its own requests, and what it withholds stays withheld when its report (the Agent
 * tool result) reaches the parent's request. Mocks only at the model boundary.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineEvent, Message } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import type { ModelRequest, Session } from '../src/index.js'
import type { ScriptStep } from '../src/testing.js'
import { decisionEngine } from './decisions-harness.js'
import { buggyProject, cleanupTempDirs } from './engine-harness.js'

cleanupTempDirs()

// Short enough that the session's redactor leaves it: only its context betrays it.
const SECRET = 'Tr0ub4dor&3'

function firstText(messages: readonly Message[]): string {
  const block = messages[0]?.content[0]
  return block?.type === 'text' ? block.text : ''
}

/** Main agent: delegate to a subagent, then answer. Subagent: read the config, then report it. */
function script(request: ModelRequest): ScriptStep {
  const assistants = request.messages.filter((message) => message.role === 'assistant').length
  if (firstText(request.messages).includes('SUBTASK')) {
    if (assistants === 0)
      return { blocks: [{ type: 'tool_use', id: 'sub1', name: 'Read', input: { file_path: 'config.txt' } }] }
    return { blocks: [{ type: 'text', text: `The config sets db_pass: "${SECRET}" for db.internal.` }] }
  }
  if (assistants === 0)
    return {
      blocks: [
        {
          type: 'tool_use',
          id: 'main1',
          name: 'Agent',
          input: { description: 'read config', prompt: 'SUBTASK: read config.txt', subagent_type: 'general' },
        },
      ],
    }
  return { blocks: [{ type: 'text', text: 'The subagent read the config.' }] }
}

async function answerQuestions(events: () => EngineEvent[]): Promise<void> {
  const answered = new Set<string>()
  for (;;) {
    const seen = events()
    for (const event of seen) {
      if (event.type !== 'questionAsked' || answered.has(event.question.id)) continue
      answered.add(event.question.id)
      sessionRef!.send({
        type: 'answerQuestion',
        questionId: event.question.id,
        response: {
          type: 'answered',
          answers: event.question.questions.map((q) => ({
            question: q.question,
            selected: ['Withhold them'],
          })),
        },
      })
    }
    if (seen.some((event) => event.type === 'turnFinished')) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

let sessionRef: Session | undefined

describe('before a request (screen_request) for subagents', () => {
  it('a subagent’s new tool results are screened before its requests, and the withheld value stays withheld in the parent’s request', async () => {
    const project = buggyProject()
    writeFileSync(join(project, 'config.txt'), `host: db.internal\ndb_pass: "${SECRET}"\n`)
    const t = await decisionEngine(script, (feature) =>
      feature === 'decisions_screen_request' ? { flagged: ['c1'] } : undefined,
    )
    const session = await t.engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      mode: 'bypass',
      settings: {
        experimental: { decisions_screen_request: 'on' },
        // A ceiling for a loaded machine: the scripted decision model answers at once.
        decisions: { model: 'decider/x', timeout_ms: 30_000 },
        context: { repo_map: false },
      },
    })
    sessionRef = session
    const done = session.submit('Have a subagent read the config')
    await answerQuestions(() => t.events(session))
    await done
    await session.idle()
    const events = t.events(session)
    await t.engine.shutdown()

    // One question, asked on the subagent's behalf.
    const questions = events.flatMap((event) => (event.type === 'questionAsked' ? [event.question] : []))
    expect(questions).toHaveLength(1)
    expect(questions[0]!.agentId).toBeDefined()
    expect(questions[0]!.toolUseId).toBe('sub1')
    const subRequests = t.client.requests.filter((request) => firstText(request.messages).includes('SUBTASK'))
    const mainRequests = t.client.requests.filter(
      (request) => !firstText(request.messages).includes('SUBTASK'),
    )
    expect(subRequests).toHaveLength(2)
    expect(mainRequests).toHaveLength(2)
    // The subagent's second request carries the placeholder, never the value.
    const subSecond = JSON.stringify(subRequests[1]!.messages)
    expect(subSecond).not.toContain(SECRET)
    expect(subSecond).toContain('db_pass: \\"[WITHHELD:1]\\"')
    // Its report quoted the value; the Agent result reaches the parent with the same placeholder.
    const mainSecond = JSON.stringify(mainRequests[1]!.messages)
    expect(mainSecond).not.toContain(SECRET)
    expect(mainSecond).toContain('The config sets db_pass: \\"[WITHHELD:1]\\" for db.internal.')
  }, 120_000)
})
