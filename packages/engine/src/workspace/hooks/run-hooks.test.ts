import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { detectSandboxBackend, Sandbox } from '@z-engine/host'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runHooks } from './run-hooks.js'
import type { HookCommand, HookInput } from './types.js'

let dir: string
const env = { PATH: process.env.PATH, HOOK_TEST_VAR: 'from-env' }
const common = { sessionId: 's-1', transcriptPath: '/tmp/s-1/log.jsonl', cwd: '/work/project' }
const preToolUse: HookInput<'PreToolUse'> = { ...common, toolName: 'Bash', toolInput: { command: 'ls' } }

/** Writes an executable shell script into the temp dir and returns a hook that runs it. */
function script(name: string, body: string, extra: Partial<HookCommand> = {}): HookCommand {
  const path = join(dir, `${name}.sh`)
  writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 })
  return { command: path, ...extra }
}

/** A killed process may linger as a zombie until its new parent reaps it; that is not running. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return !/^\d+ \(.*\) Z/.test(stat)
  } catch {
    return false
  }
}

const options = () => ({ projectDir: dir, env })

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'z-hooks-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('runHooks', () => {
  it('sends snake_case JSON on stdin with the common and event fields', async () => {
    const hook = script('capture', `cat > "${dir}/stdin.json"`)
    await runHooks(
      'PostToolUse',
      { ...common, toolName: 'Read', toolInput: { file_path: 'a' }, toolResponse: { ok: true } },
      { PostToolUse: [hook] },
      options(),
    )
    expect(JSON.parse(readFileSync(join(dir, 'stdin.json'), 'utf8'))).toEqual({
      session_id: 's-1',
      transcript_path: '/tmp/s-1/log.jsonl',
      cwd: '/work/project',
      hook_event_name: 'PostToolUse',
      tool_name: 'Read',
      tool_input: { file_path: 'a' },
      tool_response: { ok: true },
    })
  })

  it('sends stop_hook_active for Stop and trigger for PreCompact', async () => {
    const hook = script('capture2', `cat > "${dir}/stop.json"`)
    await runHooks('Stop', { ...common, stopHookActive: true }, { Stop: [hook] }, options())
    expect(JSON.parse(readFileSync(join(dir, 'stop.json'), 'utf8'))).toMatchObject({
      stop_hook_active: true,
      hook_event_name: 'Stop',
    })
    const compact = script('capture3', `cat > "${dir}/compact.json"`, { matcher: 'manual' })
    await runHooks(
      'PreCompact',
      { ...common, trigger: 'manual', customInstructions: 'focus' },
      { PreCompact: [compact] },
      options(),
    )
    expect(JSON.parse(readFileSync(join(dir, 'compact.json'), 'utf8'))).toMatchObject({
      trigger: 'manual',
      custom_instructions: 'focus',
    })
  })

  it('runs in the project root with the given env and the project dir variables', async () => {
    const hook = script('env', 'echo "$PWD|$HOOK_TEST_VAR|$CLAUDE_PROJECT_DIR|$Z_ENGINE_PROJECT_DIR"')
    const outcome = await runHooks(
      'SessionStart',
      { ...common, source: 'startup' },
      { SessionStart: [hook] },
      options(),
    )
    expect(outcome.additionalContext).toEqual([`${dir}|from-env|${dir}|${dir}`])
  })

  it('uses exit-0 stdout as context only for UserPromptSubmit and SessionStart', async () => {
    const hook = script('say', 'echo "remember the style guide"')
    const prompt = await runHooks(
      'UserPromptSubmit',
      { ...common, prompt: 'hi' },
      { UserPromptSubmit: [hook] },
      options(),
    )
    expect(prompt.additionalContext).toEqual(['remember the style guide'])
    expect(prompt.blocked).toBe(false)
    const tool = await runHooks('PreToolUse', preToolUse, { PreToolUse: [hook] }, options())
    expect(tool.additionalContext).toEqual([])
    expect(tool.results[0]!.stdout).toBe('remember the style guide\n')
  })

  it('blocks on exit 2 with stderr as the reason', async () => {
    const hook = script('block', 'echo "rm is not allowed here" >&2; exit 2')
    const outcome = await runHooks('PreToolUse', preToolUse, { PreToolUse: [hook] }, options())
    expect(outcome.blocked).toBe(true)
    expect(outcome.blockReason).toBe('rm is not allowed here')
    expect(outcome.permissionDecision).toBe('deny')
    expect(outcome.results[0]!.status).toBe('blocked')
  })

  it('reads a PermissionRequest decision: a deny (or exit 2) wins over an allow, bad answers are warned about', async () => {
    const allow = script(
      'pr-allow',
      `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"ls"}}}}'`,
    )
    const deny = script(
      'pr-deny',
      `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not today","interrupt":true}}}'`,
    )
    const odd = script(
      'pr-odd',
      `echo '{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"maybe"}}}'`,
    )
    const refuse = script('pr-refuse', 'echo "no shell" >&2; exit 2')
    const allowed = await runHooks(
      'PermissionRequest',
      preToolUse,
      { PermissionRequest: [allow, odd] },
      options(),
    )
    expect(allowed.permissionRequest).toEqual({ behavior: 'allow', updatedInput: { command: 'ls' } })
    expect(allowed.warnings.join('\n')).toContain('"behavior" to be "allow" or "deny"')
    const denied = await runHooks(
      'PermissionRequest',
      preToolUse,
      { PermissionRequest: [deny, allow] },
      options(),
    )
    expect(denied.permissionRequest).toEqual({ behavior: 'deny', message: 'not today', interrupt: true })
    const blocked = await runHooks(
      'PermissionRequest',
      preToolUse,
      { PermissionRequest: [refuse] },
      options(),
    )
    expect(blocked.blocked).toBe(true)
    expect(blocked.blockReason).toBe('no shell')
    // Written for PermissionRequest but run on PreToolUse: ignored by name.
    const elsewhere = await runHooks('PreToolUse', preToolUse, { PreToolUse: [deny] }, options())
    expect(elsewhere.permissionRequest).toBeUndefined()
    expect(elsewhere.ignored.join('\n')).toContain('hookSpecificOutput for PermissionRequest')
  })

  it('warns and continues on any other exit code', async () => {
    const hook = script('fail', 'echo "linter crashed" >&2; exit 3')
    const outcome = await runHooks(
      'PostToolUse',
      { ...preToolUse, toolResponse: 'ok' },
      { PostToolUse: [hook] },
      options(),
    )
    expect(outcome.blocked).toBe(false)
    expect(outcome.results[0]!.status).toBe('failed')
    expect(outcome.warnings).toHaveLength(1)
    expect(outcome.warnings[0]).toMatch(/exited with code 3: linter crashed; continuing/)
  })

  it('kills a hanging hook and its children at the timeout, warns and continues', async () => {
    // Two seconds: time for the hook to start its child and write its pid on a loaded machine.
    const hook = script('hang', `sleep 300 & echo $! > "${dir}/child.pid"; wait`, { timeoutSecs: 2 })
    const quick = script('quick', 'echo ok')
    const started = Date.now()
    const outcome = await runHooks(
      'UserPromptSubmit',
      { ...common, prompt: 'x' },
      { UserPromptSubmit: [hook, quick] },
      options(),
    )
    // At the timeout, not when the child ends (300 s): this bound leaves a loaded machine a minute.
    expect(Date.now() - started).toBeLessThan(60_000)
    expect(outcome.results.map((result) => result.status)).toEqual(['timeout', 'success'])
    expect(outcome.warnings[0]).toMatch(/timed out after 2s and was stopped; continuing/)
    expect(outcome.blocked).toBe(false)
    expect(outcome.additionalContext).toEqual(['ok'])
    const childPid = Number(readFileSync(join(dir, 'child.pid'), 'utf8'))
    // A killed process dies when next scheduled, which a loaded machine may delay.
    await expect.poll(() => isRunning(childPid), { timeout: 30_000 }).toBe(false)
  })

  it('warns about malformed JSON, ignores it and keeps the raw output', async () => {
    const hook = script('garbage', `echo '{"decision": "block", '`)
    const outcome = await runHooks('PreToolUse', preToolUse, { PreToolUse: [hook] }, options())
    expect(outcome.blocked).toBe(false)
    expect(outcome.permissionDecision).toBeUndefined()
    expect(outcome.warnings[0]).toMatch(/printed malformed JSON on stdout .*; its output was ignored/)
    expect(outcome.results[0]!.stdout).toBe('{"decision": "block", \n')
  })

  it('drops ill-typed JSON fields with a warning but applies the rest', async () => {
    const hook = script(
      'typed',
      `echo '{"continue": "no", "systemMessage": "linted", "hookSpecificOutput": {"permissionDecision": "maybe"}}'`,
    )
    const outcome = await runHooks('PreToolUse', preToolUse, { PreToolUse: [hook] }, options())
    expect(outcome.continue).toBe(true)
    expect(outcome.systemMessages).toEqual(['linted'])
    expect(outcome.permissionDecision).toBeUndefined()
    expect(outcome.warnings).toHaveLength(2)
  })

  it('combines permission decisions deny > ask > allow, whatever order they finish in', async () => {
    const json = (decision: string, reason: string) =>
      `echo '${JSON.stringify({ hookSpecificOutput: { permissionDecision: decision, permissionDecisionReason: reason } })}'`
    const allow = script('allow', json('allow', 'fine'))
    const ask = script('ask', `sleep 0.3; ${json('ask', 'check with user')}`)
    const deny = script('deny', json('deny', 'never'))
    const askWins = await runHooks('PreToolUse', preToolUse, { PreToolUse: [allow, ask] }, options())
    expect(askWins.permissionDecision).toBe('ask')
    expect(askWins.permissionDecisionReason).toBe('check with user')
    expect(askWins.blocked).toBe(false)
    const denyWins = await runHooks('PreToolUse', preToolUse, { PreToolUse: [allow, ask, deny] }, options())
    expect(denyWins.permissionDecision).toBe('deny')
    expect(denyWins.permissionDecisionReason).toBe('never')
    expect(denyWins.blocked).toBe(true)
    const legacy = await runHooks(
      'PreToolUse',
      preToolUse,
      { PreToolUse: [script('approve', `echo '{"decision":"approve","reason":"ok"}'`)] },
      options(),
    )
    expect(legacy.permissionDecision).toBe('allow')
  })

  it('keeps block reasons in configuration order, not completion order', async () => {
    const slow = script('slow-block', 'sleep 0.3; echo first >&2; exit 2')
    const fast = script('fast-block', `echo '{"decision":"block","reason":"second"}'`)
    const outcome = await runHooks(
      'Stop',
      { ...common, stopHookActive: false },
      { Stop: [slow, fast] },
      options(),
    )
    expect(outcome.blocked).toBe(true)
    expect(outcome.blockReason).toBe('first\nsecond')
  })

  it('rewrites tool input with updatedInput and stops with continue:false', async () => {
    const rewrite = script(
      'rewrite',
      `echo '{"hookSpecificOutput":{"permissionDecision":"allow","updatedInput":{"command":"ls -la"}}}'`,
    )
    const stop = script(
      'stop',
      `echo '{"continue":false,"stopReason":"quota reached","suppressOutput":true}'`,
    )
    const outcome = await runHooks('PreToolUse', preToolUse, { PreToolUse: [rewrite, stop] }, options())
    expect(outcome.updatedInput).toEqual({ command: 'ls -la' })
    expect(outcome.permissionDecision).toBe('allow')
    expect(outcome.continue).toBe(false)
    expect(outcome.stopReason).toBe('quota reached')
    expect(outcome.suppressOutput).toBe(true)
  })

  it('matches the whole tool name by regex; empty and * match all; a bad regex warns', async () => {
    const mark = (name: string, matcher: string) => script(name, `echo ${name}`, { matcher })
    const config = {
      UserPromptSubmit: [],
      PreToolUse: [
        mark('editOrWrite', 'Edit|Write'),
        mark('exactEdit', 'Edit'),
        mark('star', '*'),
        mark('empty', ''),
        mark('bad', '('),
      ],
    }
    const ran = async (toolName: string) => {
      const outcome = await runHooks('PreToolUse', { ...preToolUse, toolName }, config, options())
      return outcome.results
        .filter((result) => result.status === 'success')
        .map((result) => result.stdout.trim())
    }
    expect(await ran('Write')).toEqual(['editOrWrite', 'star', 'empty'])
    expect(await ran('Edit')).toEqual(['editOrWrite', 'exactEdit', 'star', 'empty'])
    expect(await ran('MultiEdit')).toEqual(['star', 'empty'])
    const outcome = await runHooks('PreToolUse', preToolUse, config, options())
    expect(outcome.warnings.some((warning) => /not a valid regular expression/.test(warning))).toBe(true)
  })

  it('runs the hooks of one event in parallel', async () => {
    // Each hook waits until all three have started: run one after another, the first would time out.
    const meet = join(dir, 'meet')
    const body = (name: string) =>
      `mkdir -p "${meet}"; touch "${meet}/${name}"; while [ "$(ls "${meet}" | wc -l)" -lt 3 ]; do sleep 0.05; done; echo ${name}`
    const hooks = ['p1', 'p2', 'p3'].map((name) => script(name, body(name), { timeoutSecs: 60 }))
    const outcome = await runHooks(
      'Notification',
      { ...common, message: 'hi' },
      { Notification: hooks },
      options(),
    )
    expect(outcome.results.map((result) => result.status)).toEqual(['success', 'success', 'success'])
  })

  it('runs an identical command once', async () => {
    const hook = script('count', `echo x >> "${dir}/count.txt"`)
    await runHooks(
      'Notification',
      { ...common, message: 'hi' },
      { Notification: [hook, { ...hook, source: 'other' }] },
      options(),
    )
    expect(readFileSync(join(dir, 'count.txt'), 'utf8')).toBe('x\n')
  })

  it('kills hooks when the signal aborts', async () => {
    const controller = new AbortController()
    const hook = script('long', 'sleep 30')
    const pending = runHooks(
      'Notification',
      { ...common, message: 'hi' },
      { Notification: [hook] },
      { ...options(), signal: controller.signal },
    )
    setTimeout(() => controller.abort(), 100)
    const outcome = await pending
    expect(outcome.results[0]!.status).toBe('cancelled')
  })

  it('reports a hook that cannot start instead of throwing', async () => {
    const outcome = await runHooks(
      'Notification',
      { ...common, message: 'hi' },
      { Notification: [{ command: 'x' }] },
      { projectDir: join(dir, 'missing-dir'), env },
    )
    expect(outcome.results[0]!.status).toBe('error')
    expect(outcome.warnings[0]).toMatch(/could not be started/)
  })

  it('returns an empty outcome when nothing is configured', async () => {
    const outcome = await runHooks('Stop', { ...common, stopHookActive: false }, {}, options())
    expect(outcome).toMatchObject({ blocked: false, continue: true, results: [], warnings: [] })
  })
})

describe('runHooks with a sandbox', () => {
  const bwrap = ['/usr/bin/bwrap', '/usr/local/bin/bwrap'].some((path) => existsSync(path))
  it.skipIf(!bwrap && process.env.CI === undefined)(
    'runs a hook its sandboxFor confines: it reads its stdin but cannot write outside the project',
    async () => {
      const backend = await detectSandboxBackend()
      const project = realpathSync(mkdtempSync(join(tmpdir(), 'z-hooks-project-')))
      const outside = realpathSync(mkdtempSync(join(tmpdir(), 'z-hooks-outside-')))
      const sandbox = await Sandbox.create({
        backend,
        settings: { enabled: true, allowNetwork: false },
        home: outside,
        env: {},
      })
      try {
        const hook: HookCommand = {
          command: `cat > stdin.json; echo x > ${outside}/leak; echo ok`,
          source: join(project, '.z-engine', 'settings.toml'),
        }
        const outcome = await runHooks(
          'PreToolUse',
          preToolUse,
          { PreToolUse: [hook] },
          {
            projectDir: project,
            env,
            sandboxFor: () => sandbox.prepare({ root: project, additionalDirectories: [] }),
          },
        )
        expect(outcome.warnings).toEqual([])
        expect(readFileSync(join(project, 'stdin.json'), 'utf8')).toContain('"tool_name":"Bash"')
        expect(existsSync(join(outside, 'leak'))).toBe(false)
      } finally {
        await sandbox.dispose()
        rmSync(project, { recursive: true, force: true })
        rmSync(outside, { recursive: true, force: true })
      }
    },
  )
  it('does not run a hook whose sandbox cannot be prepared (never unconfined instead)', async () => {
    const marker = join(dir, 'ran-unconfined')
    const outcome = await runHooks(
      'PreToolUse',
      preToolUse,
      { PreToolUse: [{ command: `touch ${marker}` }] },
      { ...options(), sandboxFor: () => Promise.reject(new Error('no temp folder')) },
    )
    expect(existsSync(marker)).toBe(false)
    expect(outcome.warnings.join('\n')).toContain('sandbox could not be prepared (no temp folder)')
  })
})
