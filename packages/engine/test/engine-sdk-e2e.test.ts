/**
 * Issue 9 acceptance "End to end over the scripted HTTP server with the real SDK adapters": a
 * fix-the-bug session (Read, Edit, Bash runs the test) in a temp git repo completes, in each wire
 * format (Anthropic, Chat Completions, Responses, Gemini), and the test
 * passes afterwards; the same session resumed from disk by a new Engine continues.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type RecordedRequest, type ServerStep, startScriptedServer } from '../src/testing.js'
import { buggyProject, cleanupTempDirs, fixTheBugResponses } from './engine-harness.js'
import { cleanupServers, sdkEngine, WIRE_MODELS } from './engine-sdk-harness.js'

cleanupTempDirs()
cleanupServers()

const fixSteps = (project: string): ServerStep[] => [
  ...fixTheBugResponses(project),
  { blocks: [{ type: 'text', text: 'Yes, it was the subtraction.' }] },
]

/** The conversation a request carries, without Anthropic's moving cache markers. */
function conversation(request: RecordedRequest): unknown[] {
  const list = (request.body.messages ?? request.body.input ?? request.body.contents) as unknown[]
  return JSON.parse(JSON.stringify(list, (key, value) => (key === 'cache_control' ? undefined : value)))
}

/** The request without its conversation: system prompt, tools, model and limits. */
const outside = (request: RecordedRequest) =>
  JSON.stringify({ ...request.body, messages: undefined, input: undefined, contents: undefined })

describe.each(Object.entries(WIRE_MODELS))(
  'end to end over the scripted HTTP server (%s SDK)',
  (_format, model) => {
    it('fixes the bug (Read, Edit, Bash runs the test), the test passes afterwards, and the session resumed from disk continues', async () => {
      const project = buggyProject()
      const server = await startScriptedServer(fixSteps(project))
      try {
        const first = await sdkEngine([], { server })
        const session = await first.engine.openSession({ projectRoot: project, mode: 'bypass', model })
        session.send({ type: 'submit', text: 'The test fails. Fix it.' })
        const finished = await first.waitFor(session, 'turnFinished')
        expect(finished).toMatchObject({ outcome: { type: 'done' }, mutated: true })
        expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a + b')
        expect(execFileSync('node', ['test.js'], { cwd: project, encoding: 'utf8' })).toContain('PASS')
        expect(
          first.events(session, 'toolFinished').map((event) => event.type === 'toolFinished' && event.status),
        ).toEqual(['ok', 'ok', 'ok'])
        // The model saw the passing test's output through the SDK's wire format.
        expect(JSON.stringify(conversation(server.requests[3]!).at(-1))).toContain('PASS')
        const usage = finished.type === 'turnFinished' ? finished.usage : undefined
        expect(usage?.outputTokens).toBeGreaterThan(0)
        const sessionId = session.id
        await first.engine.shutdown()

        // A new Engine on the same data dir resumes the session from disk.
        const second = await sdkEngine([], { server, home: first.home })
        const resumed = await second.engine.openSession({ projectRoot: project, resume: sessionId })
        expect(resumed.id).toBe(sessionId)
        resumed.send({ type: 'submit', text: 'Was it the subtraction?' })
        const again = await second.waitFor(resumed, 'turnFinished')
        expect(again).toMatchObject({ outcome: { type: 'done' } })
        await second.engine.shutdown()

        expect(server.requests).toHaveLength(5)
        const before = server.requests[3]!
        const after = server.requests[4]!
        // The resumed request is the same model, system prompt and tools, and its conversation extends
        // the last one sent before the restart, so even the provider's cache survives the resume.
        expect(outside(after)).toBe(outside(before))
        const previous = conversation(before)
        const next = conversation(after)
        expect(next.slice(0, previous.length)).toEqual(previous)
        expect(JSON.stringify(next.slice(previous.length))).toContain('Was it the subtraction?')
        expect(JSON.stringify(next)).toContain('Fixed: add now adds')
      } finally {
        await server.close()
      }
    })
  },
)
