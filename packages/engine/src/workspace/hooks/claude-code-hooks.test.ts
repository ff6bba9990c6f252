import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { compileMatcher, matcherKind } from './matcher.js'
import { runHooks } from './run-hooks.js'
import { defaultHookTimeoutSecs, type HookCommand } from './types.js'

// Each case follows a behaviour of Claude Code's hooks documentation (hooks reference).
let dir: string
const env = { PATH: process.env.PATH }
const common = { sessionId: 's-1', transcriptPath: '/tmp/log.jsonl', cwd: '/work/project' }

function script(name: string, body: string, extra: Partial<HookCommand> = {}): HookCommand {
  const path = join(dir, `${name}.sh`)
  writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 })
  return { command: path, ...extra }
}
const options = () => ({ projectDir: dir, env, call: { projectRoot: dir, cwd: dir, home: '/home/u' } })

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'z-cc-hooks-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('Claude Code hooks', () => {
  it('command hooks time out after 600 s by default, UserPromptSubmit hooks after 30 s', async () => {
    expect(defaultHookTimeoutSecs('PreToolUse')).toBe(600)
    expect(defaultHookTimeoutSecs('UserPromptSubmit')).toBe(30)
    const hook = script('ok', 'exit 0')
    const outcome = await runHooks(
      'UserPromptSubmit',
      { ...common, prompt: 'hi' },
      { UserPromptSubmit: [hook] },
      options(),
    )
    expect(outcome.results[0]?.hook.timeoutSecs).toBe(30)
  })

  it('matchers of letters, digits, _ and | are exact names or lists; anything else is a regex', () => {
    expect(matcherKind(undefined, 'PreToolUse')).toBe('all')
    expect(matcherKind('*', 'PreToolUse')).toBe('all')
    expect(matcherKind('Edit', 'PreToolUse')).toBe('exact')
    expect(matcherKind('Edit|Write', 'PreToolUse')).toBe('list')
    expect(matcherKind('mcp__memory__.*', 'PreToolUse')).toBe('regex')
    const exact = compileMatcher('Edit', 'PreToolUse')
    const list = compileMatcher('Edit|Write', 'PreToolUse')
    const regex = compileMatcher('^Notebook', 'PreToolUse')
    if (!exact.ok || !list.ok || !regex.ok) throw new Error('valid matchers')
    expect([exact.test('Edit'), exact.test('NotebookEdit')]).toEqual([true, false])
    expect([list.test('Write'), list.test('WriteFile')]).toEqual([true, false])
    // A regex is searched in the value, as JavaScript's RegExp.test does.
    expect([regex.test('NotebookEdit'), regex.test('Edit')]).toEqual([true, false])
    expect(compileMatcher('mcp__(', 'PreToolUse').ok).toBe(false)
  })

  it('hyphens, spaces and commas make names, not regular expressions, where Claude Code reads them so', () => {
    // `code-reviewer` is one agent type: as a regex it would also match `my-code-reviewer-2`.
    const agent = compileMatcher('code-reviewer', 'SubagentStop')
    if (!agent.ok) throw new Error('valid matcher')
    expect(agent.kind).toBe('exact')
    expect([agent.test('code-reviewer'), agent.test('my-code-reviewer-2')]).toEqual([true, false])
    const commas = compileMatcher('Edit, Write | MultiEdit', 'PostToolUse')
    if (!commas.ok) throw new Error('valid matcher')
    expect(commas.kind).toBe('list')
    expect(['Edit', 'Write', 'MultiEdit', 'Edit, Write'].map(commas.test)).toEqual([true, true, true, false])
    // StopFailure matches its error code with the strict rule: a hyphen makes a regex there.
    expect(matcherKind('rate-limit', 'StopFailure')).toBe('regex')
    expect(matcherKind('rate_limit|overloaded', 'StopFailure')).toBe('list')
  })

  it('a matcher on an event with nothing to match (UserPromptSubmit, Stop) is ignored', async () => {
    expect(matcherKind('Bash', 'UserPromptSubmit')).toBe('ignored')
    // Not even an invalid regular expression keeps it from running.
    const hook = script('prompt-any', `echo ran >> "${dir}/prompt-any.log"`, { matcher: 'Bash(' })
    const outcome = await runHooks(
      'UserPromptSubmit',
      { ...common, prompt: 'hi' },
      { UserPromptSubmit: [hook] },
      options(),
    )
    expect(outcome.results.map((result) => result.status)).toEqual(['success'])
    expect(readFileSync(join(dir, 'prompt-any.log'), 'utf8')).toBe('ran\n')
  })

  it('the if field runs a hook only for tool calls matching its permission rule, per subcommand', async () => {
    const hook = script('git-guard', `echo ran >> "${dir}/git-guard.log"`, { if: 'Bash(git *)' })
    const config = { PreToolUse: [hook] }
    for (const command of ['ls', 'git status', 'ls && git push', 'FOO=bar git push'])
      await runHooks('PreToolUse', { ...common, toolName: 'Bash', toolInput: { command } }, config, options())
    await runHooks(
      'PreToolUse',
      { ...common, toolName: 'Read', toolInput: { file_path: `${dir}/x` } },
      config,
      options(),
    )
    expect(readFileSync(join(dir, 'git-guard.log'), 'utf8').trim().split('\n')).toHaveLength(3)

    const edits = script('ts-only', `echo ran >> "${dir}/ts.log"`, { if: 'Edit(*.ts)' })
    await runHooks(
      'PreToolUse',
      { ...common, toolName: 'Write', toolInput: { file_path: `${dir}/a.ts`, content: '' } },
      { PreToolUse: [edits] },
      options(),
    )
    await runHooks(
      'PreToolUse',
      { ...common, toolName: 'Write', toolInput: { file_path: `${dir}/a.md`, content: '' } },
      { PreToolUse: [edits] },
      options(),
    )
    expect(readFileSync(join(dir, 'ts.log'), 'utf8').trim().split('\n')).toHaveLength(1)
  })

  it('an if that is not a valid rule does not silence the hook: it runs, with a warning', async () => {
    const hook = script('bad-if', 'exit 2', { if: 'Bash(' })
    const outcome = await runHooks(
      'PreToolUse',
      { ...common, toolName: 'Bash', toolInput: { command: 'ls' } },
      { PreToolUse: [hook] },
      options(),
    )
    expect(outcome.blocked).toBe(true)
    expect(outcome.warnings.join('\n')).toContain('"if"')
  })

  it('SubagentStart and SubagentStop match on the agent type and receive agent_id and agent_type', async () => {
    const hook = script('agent', `cat > "${dir}/agent.json"`, { matcher: 'reviewer' })
    const other = script('other', `echo ran > "${dir}/other.log"`, { matcher: 'Explore' })
    await runHooks(
      'SubagentStart',
      { ...common, agentId: 'a1', agentType: 'reviewer' },
      { SubagentStart: [hook, other] },
      options(),
    )
    expect(JSON.parse(readFileSync(join(dir, 'agent.json'), 'utf8'))).toMatchObject({
      hook_event_name: 'SubagentStart',
      agent_id: 'a1',
      agent_type: 'reviewer',
    })
    const stop = await runHooks(
      'SubagentStop',
      {
        ...common,
        stopHookActive: false,
        agentId: 'a1',
        agentType: 'reviewer',
        lastAssistantMessage: 'done',
      },
      { SubagentStop: [script('stop', 'echo "tests fail" >&2; exit 2', { matcher: 'reviewer|Plan' })] },
      options(),
    )
    expect(stop.blockReason).toBe('tests fail')
    expect(() => readFileSync(join(dir, 'other.log'))).toThrow()
  })

  it('PreCompact exit code 2 blocks compaction', async () => {
    const outcome = await runHooks(
      'PreCompact',
      { ...common, trigger: 'auto', customInstructions: '' },
      { PreCompact: [script('no-compact', 'echo "not now" >&2; exit 2', { matcher: 'auto' })] },
      options(),
    )
    expect(outcome.blocked).toBe(true)
    expect(outcome.blockReason).toBe('not now')
  })

  it('outcomes an event cannot have are ignored and reported (exit 2 on SessionStart, a decision on Stop)', async () => {
    const start = await runHooks(
      'SessionStart',
      { ...common, source: 'startup' },
      { SessionStart: [script('start-block', 'echo no >&2; exit 2')] },
      options(),
    )
    expect(start.blocked).toBe(false)
    expect(start.ignored[0]).toContain('exit code 2')
    const stop = await runHooks(
      'Stop',
      { ...common, stopHookActive: false },
      {
        Stop: [
          script(
            'stop-decision',
            `echo '{"hookSpecificOutput":{"hookEventName":"Stop","permissionDecision":"allow"}}'`,
          ),
        ],
      },
      options(),
    )
    expect(stop.permissionDecision).toBeUndefined()
    expect(stop.ignored[0]).toContain('"permissionDecision"')
  })

  it('hookSpecificOutput written for another event is dropped', async () => {
    const outcome = await runHooks(
      'PreToolUse',
      { ...common, toolName: 'Bash', toolInput: { command: 'ls' } },
      {
        PreToolUse: [
          script(
            'wrong-event',
            `echo '{"hookSpecificOutput":{"hookEventName":"PostToolUse","permissionDecision":"deny"}}'`,
          ),
        ],
      },
      options(),
    )
    expect(outcome.permissionDecision).toBeUndefined()
    expect(outcome.ignored[0]).toContain('hookSpecificOutput for PostToolUse')
  })

  it('every event sends permission_mode, and agent_id/agent_type inside a subagent', async () => {
    const hook = script('mode', `cat > "${dir}/mode.json"`)
    await runHooks(
      'PreToolUse',
      {
        ...common,
        permissionMode: 'bypassPermissions',
        agentId: 'a2',
        agentType: 'Explore',
        toolName: 'Bash',
        toolInput: { command: 'ls' },
      },
      { PreToolUse: [hook] },
      options(),
    )
    expect(JSON.parse(readFileSync(join(dir, 'mode.json'), 'utf8'))).toMatchObject({
      permission_mode: 'bypassPermissions',
      agent_id: 'a2',
      agent_type: 'Explore',
    })
  })

  it('PreSkillShellCommand: deny, ask, defer or any updatedInput refuse the line; allow adds nothing', async () => {
    const line = {
      ...common,
      toolName: 'Bash',
      toolInput: { command: 'git status' },
      toolUseId: 'skill-shell-1',
      commandName: 'commit',
      invokedBy: 'user' as const,
    }
    const answer = (name: string, specific: Record<string, unknown>) =>
      script(
        name,
        `cat >/dev/null\nprintf '%s' '${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreSkillShellCommand', ...specific } })}'`,
      )
    const run = (hook: HookCommand) =>
      runHooks('PreSkillShellCommand', line, { PreSkillShellCommand: [hook] }, options())
    for (const decision of ['deny', 'ask', 'defer']) {
      const outcome = await run(
        answer(`skill-${decision}`, { permissionDecision: decision, permissionDecisionReason: 'no' }),
      )
      expect(outcome.blocked, decision).toBe(true)
      expect(outcome.blockReason).toBe('no')
      expect(outcome.warnings).toEqual([])
    }
    const rewrite = await run(answer('skill-rewrite', { updatedInput: { command: 'git log' } }))
    expect(rewrite.blocked).toBe(true)
    const allow = await run(answer('skill-allow', { permissionDecision: 'allow' }))
    expect(allow.blocked).toBe(false)
    expect(allow.warnings).toEqual([])
  })

  it('output fields of events that never fire are refused by name', async () => {
    const hook = script(
      'watch',
      `cat >/dev/null\nprintf '%s' '{"hookSpecificOutput":{"hookEventName":"CwdChanged","watchPaths":[".env"],"retry":true}}'`,
    )
    const outcome = await runHooks(
      'CwdChanged',
      { ...common, oldCwd: '/a', newCwd: '/b' },
      { CwdChanged: [hook] },
      options(),
    )
    expect(outcome.warnings).toEqual([
      expect.stringContaining(
        'ignored "hookSpecificOutput.watchPaths": Z Engine watches the files FileChanged matchers name',
      ),
      expect.stringContaining('ignored "hookSpecificOutput.retry": PermissionDenied never fires'),
    ])
  })

  it('"defer" on PreToolUse is named as ignored, never read as a decision', async () => {
    const hook = script(
      'defer',
      `cat >/dev/null\nprintf '%s' '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer"}}'`,
    )
    const outcome = await runHooks(
      'PreToolUse',
      { ...common, toolName: 'Bash', toolInput: { command: 'ls' } },
      { PreToolUse: [hook] },
      options(),
    )
    expect(outcome.permissionDecision).toBeUndefined()
    expect(outcome.ignored).toEqual([expect.stringContaining('"permissionDecision": "defer"')])
  })
})
