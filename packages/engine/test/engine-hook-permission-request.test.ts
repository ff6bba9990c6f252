/**
 * Issue 38: PermissionRequest hooks run when a call is about to ask for approval, on a real Engine
 * with a real hook script reading Claude Code's stdin. Its allow runs the call without a card, its
 * deny's message reaches the model, no answer asks the user as before, and an allow that rewrites
 * the input never gets past a deny rule.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { ToolResultBlock } from '@z-engine/protocol'
import { afterAll, describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

afterAll(() => cleanupTempDirs())

const answer = (decision: Record<string, unknown>) =>
  JSON.stringify({ hookSpecificOutput: { hookEventName: 'PermissionRequest', decision } })

/** A home whose PermissionRequest hook (matcher `Bash`) logs its stdin and answers by the command. */
function answeringHome(): { home: string; log: string } {
  const home = tempDir('ze-home-')
  mkdirSync(join(home, 'config'), { recursive: true })
  mkdirSync(join(home, 'logs'), { recursive: true })
  const hook = join(home, 'logs', 'permission-request.sh')
  const log = join(home, 'logs', 'PermissionRequest.jsonl')
  writeFileSync(
    hook,
    [
      '#!/bin/sh',
      'input=$(cat)',
      `printf '%s\\n' "$input" >> '${log}'`,
      'case "$input" in',
      `  *allowed-ran*) echo '${answer({ behavior: 'allow' })}';;`,
      `  *denied-run*) echo '${answer({ behavior: 'deny', message: 'use the build script instead' })}';;`,
      `  *rewrite-me*) echo '${answer({ behavior: 'allow', updatedInput: { command: 'curl http://example.com', description: 'fetch' } })}';;`,
      `  *stop-now*) echo '${answer({ behavior: 'deny', message: 'stop here', interrupt: true })}';;`,
      'esac',
      '',
    ].join('\n'),
  )
  chmodSync(hook, 0o755)
  writeFileSync(
    join(home, 'config', 'settings.toml'),
    [
      '[permissions]',
      'deny = ["Bash(curl *)"]',
      '',
      '[[hooks.PermissionRequest]]',
      'matcher = "Bash"',
      `command = "${hook}"`,
      '',
      '[shell.sandbox]',
      'write_paths = ["~/logs"]',
      '',
    ].join('\n'),
  )
  return { home, log }
}

const bash = (command: string) => ({
  blocks: [{ type: 'tool_use' as const, name: 'Bash', input: { command, description: command } }],
})

describe('PermissionRequest hooks', { timeout: 60_000 }, () => {
  it('answer an ask instead of the user: allow, deny with a message, no answer asks, a deny rule holds', async () => {
    const project = buggyProject()
    const { home, log } = answeringHome()
    const t = await engineWith(
      [
        bash('touch allowed-ran.txt'),
        bash('touch denied-run.txt'),
        bash('touch rewrite-me.txt'),
        bash('touch plain.txt'),
        { blocks: [{ type: 'text', text: 'ok' }] },
      ],
      home,
    )
    const results = (request: number): string => {
      const content = t.client.requests[request]!.messages.at(-1)!.content
      return JSON.stringify(content.filter((block): block is ToolResultBlock => block.type === 'tool_result'))
    }
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    const asked = await t.waitFor(session, 'approvalRequested')
    if (asked.type !== 'approvalRequested') throw new Error('unreachable')
    // Only the call no hook answered reached the user.
    expect(asked.request.title).toContain('plain.txt')
    session.send({ type: 'resolveApproval', approvalId: asked.request.id, decision: { type: 'allowOnce' } })
    await session.idle()

    expect(t.events(session, 'approvalRequested')).toHaveLength(1)
    expect(existsSync(join(project, 'allowed-ran.txt'))).toBe(true)
    expect(existsSync(join(project, 'denied-run.txt'))).toBe(false)
    expect(results(2)).toContain('use the build script instead')
    expect(existsSync(join(project, 'rewrite-me.txt'))).toBe(false)
    expect(results(3)).toContain('a deny rule forbids')
    expect(existsSync(join(project, 'plain.txt'))).toBe(true)

    const inputs = readFileSync(log, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(inputs.map((input) => (input.tool_input as { command: string }).command)).toEqual([
      'touch allowed-ran.txt',
      'touch denied-run.txt',
      'touch rewrite-me.txt',
      'touch plain.txt',
    ])
    expect(inputs[0]).toMatchObject({
      hook_event_name: 'PermissionRequest',
      tool_name: 'Bash',
      permission_mode: 'default',
      cwd: project,
      tool_use_id: expect.any(String),
      // The card's suggested rule, as Claude Code's permission updates.
      permission_suggestions: [
        { type: 'addRules', behavior: 'allow', rules: [{ toolName: 'Bash', ruleContent: 'touch:*' }] },
      ],
    })
    await session.close()
    await t.engine.shutdown()
  })

  it('a deny with interrupt also stops the turn: no further request', async () => {
    const project = buggyProject()
    const { home } = answeringHome()
    const t = await engineWith(
      [bash('touch stop-now.txt'), { blocks: [{ type: 'text', text: 'never' }] }],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await session.idle()
    expect(t.events(session, 'approvalRequested')).toHaveLength(0)
    expect(existsSync(join(project, 'stop-now.txt'))).toBe(false)
    expect(t.client.requests).toHaveLength(1)
    const finished = t.events(session, 'toolFinished').at(-1)
    expect(finished).toMatchObject({ status: 'denied', output: expect.stringContaining('stop here') })
    await session.close()
    await t.engine.shutdown()
  })
})
