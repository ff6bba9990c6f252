/**
 * Issue 16 item 2: `canUseTool(request, { signal })` sees every call after hooks and the policy,
 * with the policy's verdict, and allows (optionally with new input), denies with a message, or asks.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ToolResultBlock } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import type { ToolPermissionRequest } from '../src/index.js'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

function lastResults(t: Awaited<ReturnType<typeof engineWith>>, request: number): ToolResultBlock[] {
  const messages = t.client.requests[request]!.messages
  return messages.at(-1)!.content.filter((block): block is ToolResultBlock => block.type === 'tool_result')
}

const text = (result: ToolResultBlock | undefined) => JSON.stringify(result?.content)

describe('canUseTool', () => {
  it('sees a Read the policy allows and denies a Bash with a message the model reads', async () => {
    const project = buggyProject()
    const seen: ToolPermissionRequest[] = []
    const t = await engineWith(
      [
        {
          blocks: [
            { type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } },
            { type: 'tool_use', name: 'Bash', input: { command: 'rm -rf build', description: 'Clean' } },
          ],
        },
        { blocks: [{ type: 'text', text: 'ok' }] },
      ],
      undefined,
      {
        canUseTool: (request) => {
          seen.push(request)
          return request.toolName === 'Bash'
            ? { behavior: 'deny', message: 'no shell in this app' }
            : { behavior: 'allow' }
        },
      },
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await session.idle()
    expect(seen.map((request) => [request.toolName, request.verdict.decision])).toEqual([
      ['Read', 'allow'],
      ['Bash', 'ask'],
    ])
    expect(seen[0]).toMatchObject({
      agentId: 'main',
      action: { type: 'read', paths: [join(project, 'math.js')] },
      input: { file_path: join(project, 'math.js') },
    })
    expect(t.events(session, 'approvalRequested')).toHaveLength(0)
    const [read, bash] = lastResults(t, 1)
    expect(read!.isError).toBe(false)
    expect(bash).toMatchObject({ isError: true })
    expect(text(bash)).toContain('Permission denied: no shell in this app')
    const statuses = t
      .events(session, 'toolFinished')
      .map((event) => event.type === 'toolFinished' && event.status)
    expect(statuses.sort()).toEqual(['denied', 'ok'])
    await t.engine.shutdown()
  })

  it('allows an ask without a card, and rewrites input that the policy then decides again', async () => {
    const project = buggyProject()
    const home = tempDir('ze-home-')
    mkdirSync(join(home, 'config'))
    writeFileSync(join(home, 'config', 'settings.toml'), '[permissions]\ndeny = ["Bash(curl *)"]\n')
    const t = await engineWith(
      [
        { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } }] },
        {
          blocks: [
            {
              type: 'tool_use',
              name: 'Edit',
              input: { file_path: join(project, 'math.js'), old_string: 'a - b', new_string: 'a + b' },
            },
          ],
        },
        {
          blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo original', description: 'x' } }],
        },
        { blocks: [{ type: 'tool_use', name: 'Bash', input: { command: 'echo two', description: 'y' } }] },
        { blocks: [{ type: 'text', text: 'ok' }] },
      ],
      home,
      {
        canUseTool: ({ toolName, input }) => {
          if (toolName !== 'Bash') return { behavior: 'allow' }
          return input.command === 'echo original'
            ? { behavior: 'allow', updatedInput: { ...input, command: 'echo rewritten' } }
            : { behavior: 'allow', updatedInput: { ...input, command: 'curl http://example.com' } }
        },
      },
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await session.idle()
    expect(t.events(session, 'approvalRequested')).toHaveLength(0)
    expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a + b')
    expect(text(lastResults(t, 3)[0])).toContain('rewritten')
    const denied = lastResults(t, 4)[0]
    expect(denied!.isError).toBe(true)
    expect(text(denied)).toContain('a deny rule forbids')
    await t.engine.shutdown()
  })

  it('asks the user through the normal approval even for a call the policy allows', async () => {
    const project = buggyProject()
    const t = await engineWith(
      [
        { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } }] },
        { blocks: [{ type: 'text', text: 'ok' }] },
      ],
      undefined,
      { canUseTool: () => ({ behavior: 'ask' }) },
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    const asked = await t.waitFor(session, 'approvalRequested')
    if (asked.type !== 'approvalRequested') throw new Error('unreachable')
    expect(asked.request).toMatchObject({ toolName: 'Read', reason: 'the host asked for approval' })
    session.send({
      type: 'resolveApproval',
      approvalId: asked.request.id,
      decision: { type: 'deny', feedback: 'not now' },
    })
    await session.idle()
    expect(text(lastResults(t, 1)[0])).toContain('not now')
    await t.engine.shutdown()
  })

  it('denies when the callback throws, answers garbage or does not answer in time; a policy deny never reaches it', async () => {
    const project = buggyProject()
    const home = tempDir('ze-home-')
    mkdirSync(join(home, 'config'))
    writeFileSync(join(home, 'config', 'settings.toml'), '[permissions]\ndeny = ["Glob"]\n')
    const asked: string[] = []
    const t = await engineWith(
      [
        {
          blocks: [
            { type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } },
            { type: 'tool_use', name: 'Read', input: { file_path: join(project, 'test.js') } },
            { type: 'tool_use', name: 'Grep', input: { pattern: 'add', path: project } },
            { type: 'tool_use', name: 'Glob', input: { pattern: '*.js', path: project } },
          ],
        },
        { blocks: [{ type: 'text', text: 'ok' }] },
      ],
      home,
      {
        canUseToolTimeoutMs: 50,
        canUseTool: (request) => {
          asked.push(request.toolName)
          if (request.input.file_path === join(project, 'math.js')) throw new Error('host crashed')
          if (request.toolName === 'Read') return { behavior: 'maybe' } as never
          return new Promise(() => {})
        },
      },
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await session.idle()
    expect(asked).toEqual(['Read', 'Read', 'Grep'])
    const results = lastResults(t, 1)
    expect(results.map((result) => result.isError)).toEqual([true, true, true, true])
    expect(text(results[0])).toContain('canUseTool failed: host crashed')
    expect(text(results[1])).toContain("expected { behavior: 'allow' | 'deny' | 'ask' }")
    expect(text(results[2])).toContain('did not answer within')
    expect(text(results[3])).toContain('Permission denied: a deny rule forbids')
    await t.engine.shutdown()
  })

  it('a session’s callback replaces the engine’s', async () => {
    const project = buggyProject()
    const calls: string[] = []
    const t = await engineWith(
      [
        { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } }] },
        { blocks: [{ type: 'text', text: 'ok' }] },
      ],
      undefined,
      {
        canUseTool: () => {
          calls.push('engine')
          return { behavior: 'allow' }
        },
      },
    )
    const session = await t.engine.openSession({
      projectRoot: project,
      model: 'scripted:x',
      canUseTool: () => {
        calls.push('session')
        return { behavior: 'allow' }
      },
    })
    session.send({ type: 'submit', text: 'go' })
    await session.idle()
    expect(calls).toEqual(['session'])
    await t.engine.shutdown()
  })
})
