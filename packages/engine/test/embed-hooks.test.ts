/**
 * Issue 16 item 3: hooks as functions for every hook event, alongside shell hooks, with the same
 * outcomes and precedence (any block blocks, deny > ask > allow, the last updatedInput wins).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ToolResultBlock } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import type { HookCallbacks } from '../src/index.js'
import type { ModelRequest } from '../src/model/types.js'
import { agentOf } from '../src/orchestration/orchestration.test-util.js'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

const resultsIn = (request: ModelRequest | undefined) =>
  (request?.messages.at(-1)?.content ?? []).filter(
    (block): block is ToolResultBlock => block.type === 'tool_result',
  )
const textOf = (value: unknown) => JSON.stringify(value)

describe('hook functions', () => {
  it('rewrite and block tool calls, add context, and combine with shell hooks by the same precedence', async () => {
    const project = buggyProject()
    const home = tempDir('ze-home-')
    mkdirSync(join(home, 'config'))
    // A shell hook allows every Bash; the function hook's deny is stricter and wins.
    writeFileSync(
      join(home, 'config', 'settings.toml'),
      `[[hooks.PreToolUse]]\nmatcher = "Bash"\ncommand = "echo '{\\"hookSpecificOutput\\":{\\"permissionDecision\\":\\"allow\\"}}'"\n`,
    )
    const seen: string[] = []
    const hooks: HookCallbacks = {
      UserPromptSubmit: [
        { hook: ({ prompt }) => ({ hookSpecificOutput: { additionalContext: `ctx for ${prompt}` } }) },
      ],
      PreToolUse: [
        {
          matcher: 'Bash',
          hook: ({ toolInput }) => {
            const command = (toolInput as { command: string }).command
            if (command.startsWith('rm'))
              return { hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: 'no rm' } }
            return { hookSpecificOutput: { updatedInput: { command: 'echo rewritten', description: 'x' } } }
          },
        },
        { matcher: 'Read', hook: () => ({ decision: 'block', reason: 'reads are off today' }) },
      ],
      PostToolUse: [
        {
          hook: ({ toolName, toolResponse }) => {
            seen.push(`post ${toolName} ${textOf(toolResponse).includes('rewritten')}`)
            return { hookSpecificOutput: { additionalContext: 'post-context' } }
          },
        },
      ],
      Stop: [
        {
          hook: ({ stopHookActive }) =>
            stopHookActive ? undefined : { decision: 'block', reason: 'say goodbye first' },
        },
      ],
    }
    const t = await engineWith(
      [
        {
          blocks: [
            { type: 'tool_use', name: 'Bash', input: { command: 'echo original', description: 'a' } },
            { type: 'tool_use', name: 'Bash', input: { command: 'rm -rf x', description: 'b' } },
            { type: 'tool_use', name: 'Read', input: { file_path: join(project, 'math.js') } },
          ],
        },
        { blocks: [{ type: 'text', text: 'done' }] },
        { blocks: [{ type: 'text', text: 'goodbye' }] },
      ],
      home,
      { hooks },
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'hello' })
    await session.idle()
    expect(textOf(t.client.requests[0]!.messages[0])).toContain('ctx for hello')
    const [echo, rm, read] = resultsIn(t.client.requests[1])
    // The shell hook's allow lets the rewritten command run without asking.
    expect(t.events(session, 'approvalRequested')).toHaveLength(0)
    expect(textOf(echo)).toContain('rewritten')
    expect(textOf(echo)).toContain('post-context')
    expect(rm).toMatchObject({ isError: true })
    expect(textOf(rm)).toContain('no rm')
    expect(textOf(read)).toContain('reads are off today')
    expect(seen).toEqual(['post Bash true'])
    // The Stop hook blocked once: the run went on with its reason.
    expect(t.client.requests).toHaveLength(3)
    expect(textOf(t.client.requests[2]!.messages.at(-1))).toContain('say goodbye first')
    await t.engine.shutdown()
  })

  it('run for SessionStart, Notification, PreCompact, SubagentStop and SessionEnd; a throw or timeout is a warning', async () => {
    const project = buggyProject()
    const events: string[] = []
    const record =
      (name: string) =>
      (input: { hookEventName: string }): undefined => {
        events.push(`${name}:${input.hookEventName}`)
        return undefined
      }
    const hooks: HookCallbacks = {
      SessionStart: [
        { hook: ({ source }) => ({ hookSpecificOutput: { additionalContext: `started ${source}` } }) },
      ],
      Notification: [{ hook: (input) => record(input.message)(input) }],
      PreCompact: [{ matcher: 'manual', hook: record('compact') }],
      SubagentStop: [{ hook: record('sub') }],
      SessionEnd: [{ hook: record('end') }],
      UserPromptSubmit: [
        {
          name: 'broken',
          hook: () => {
            throw new Error('oops')
          },
        },
        { name: 'slow', timeoutSecs: 0.05, hook: () => new Promise(() => {}) },
      ],
    }
    const t = await engineWith(
      (request) => {
        if (request.system[0]?.text.startsWith('You summarize'))
          return { blocks: [{ type: 'text', text: 'Summary.' }] }
        if (agentOf(request) === 'general') return { blocks: [{ type: 'text', text: 'sub done' }] }
        const rounds = request.messages.filter((message) => message.role === 'assistant').length
        if (rounds === 0)
          return {
            blocks: [
              {
                type: 'tool_use',
                name: 'Agent',
                input: { description: 'look', prompt: 'Look around.', subagent_type: 'general' },
              },
              {
                type: 'tool_use',
                name: 'Write',
                input: { file_path: join(project, 'new.txt'), content: 'x' },
              },
            ],
          }
        return { blocks: [{ type: 'text', text: 'done' }] }
      },
      undefined,
      { hooks },
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    const asked = await t.waitFor(session, 'approvalRequested')
    if (asked.type !== 'approvalRequested') throw new Error('unreachable')
    session.send({ type: 'resolveApproval', approvalId: asked.request.id, decision: { type: 'allowOnce' } })
    await session.idle()
    expect(textOf(t.client.requests[0]!.messages[0])).toContain('started startup')
    session.send({ type: 'runCommand', name: 'compact', args: '' })
    await t.waitFor(session, 'compacted')
    await session.idle()
    await session.close()
    // The batch asks about the Write before any call runs, so the Notification comes first.
    expect(events).toEqual([
      'Z Engine needs your permission to use Write:Notification',
      'sub:SubagentStop',
      'compact:PreCompact',
      'end:SessionEnd',
    ])
    const warnings = t
      .events(session, 'notice')
      .flatMap((event) => (event.type === 'notice' ? [event.message] : []))
      .join('\n')
    expect(warnings).toContain('UserPromptSubmit hook `broken` threw: oops')
    expect(warnings).toContain('UserPromptSubmit hook `slow` timed out')
    await t.engine.shutdown()
  })
})
