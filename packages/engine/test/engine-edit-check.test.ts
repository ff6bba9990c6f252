/**
 * Issue 39: an Edit whose old_string is not in the file fails at once with the reason instead of
 * being sent for approval (the user is never asked to approve what cannot run); an Edit that an
 * earlier call of the same batch may make applicable is still asked about, and then applies.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ScriptedResponse } from '../src/testing.js'
import { buggyProject, cleanupTempDirs, engineWith } from './engine-harness.js'

cleanupTempDirs()

describe('an edit that cannot apply', () => {
  it('fails without asking; one a preceding write of the batch makes applicable is asked about', async () => {
    const project = buggyProject()
    const file = join(project, 'math.js')
    const call = (id: string, name: string, input: Record<string, unknown>) => ({
      type: 'tool_use' as const,
      id,
      name,
      input,
    })
    const responses: ScriptedResponse[] = [
      { blocks: [call('r1', 'Read', { file_path: file })] },
      {
        blocks: [
          call('e1', 'Edit', { file_path: file, old_string: 'return a * b', new_string: 'return a + b' }),
        ],
      },
      // The same batch writes the text the next edit replaces: the edit is asked about, not refused.
      {
        blocks: [
          call('w1', 'Write', { file_path: file, content: 'export const x = 1\n' }),
          call('e2', 'Edit', { file_path: file, old_string: 'x = 1', new_string: 'x = 2' }),
        ],
      },
      { blocks: [{ type: 'text', text: 'done' }] },
    ]
    const t = await engineWith(responses)
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'fix it' })
    // The first card is the Write's: the impossible Edit before it never asked.
    const asked = await t.waitFor(session, 'approvalRequested')
    if (asked.type !== 'approvalRequested') throw new Error('unreachable')
    expect(asked.request.toolUseId).toBe('w1')
    const finished = t.events(session, 'toolFinished')
    expect(finished[1]).toMatchObject({ toolUseId: 'e1', status: 'error' })
    expect(finished[1]?.type === 'toolFinished' && finished[1].output).toContain('old_string was not found')
    // The batch's asks come together: wait for the Edit's card as well.
    await t.waitFor(session, 'approvalRequested', 2)
    const requests = () => t.events(session, 'approvalRequested')
    expect(requests()).toHaveLength(2)
    for (const request of requests())
      if (request.type === 'approvalRequested')
        session.send({
          type: 'resolveApproval',
          approvalId: request.request.id,
          decision: { type: 'allowOnce' },
        })
    await t.waitFor(session, 'turnFinished')
    await t.engine.shutdown()
    expect(readFileSync(file, 'utf8')).toBe('export const x = 2\n')
  })
})
