import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { HookCommand } from '../workspace/hooks/types.js'
import { createHookPort } from './hook-port.js'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'z-hook-port-'))
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function script(name: string, body: string, extra: Partial<HookCommand> = {}): HookCommand {
  const path = join(dir, `${name}.sh`)
  writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 })
  return { command: path, ...extra }
}

function port(config: Record<string, HookCommand[]>, notices: string[]) {
  return createHookPort({
    config: () => config,
    sessionId: 's',
    transcriptPath: '',
    projectDir: dir,
    env: { PATH: process.env.PATH },
    mode: () => 'bypass',
    onNotice: (level, message) => notices.push(`${level}: ${message}`),
  })
}

describe('hook port (Claude Code behaviours)', () => {
  it('shows a PreToolUse allow reason to the user', async () => {
    const notices: string[] = []
    const hooks = port(
      {
        PreToolUse: [
          script(
            'allow',
            `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"read-only listing"}}'`,
          ),
        ],
      },
      notices,
    )
    const verdict = await hooks.preToolUse('Bash', { command: 'ls' }, 't1')
    expect(verdict.permission).toEqual({ decision: 'allow', reason: 'read-only listing' })
    expect(notices).toEqual(['info: PreToolUse hook allowed Bash: read-only listing'])
  })

  it('PreCompact exit code 2 blocks compaction with its stderr', async () => {
    const hooks = port({ PreCompact: [script('pc', 'echo busy >&2; exit 2')] }, [])
    expect(await hooks.preCompact('manual', '')).toEqual({ blocked: 'busy' })
  })

  it('SubagentStart context goes to the subagent; SubagentStop matches its type', async () => {
    const hooks = port(
      {
        SubagentStart: [
          script(
            'ss',
            `echo '{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"use pnpm"}}'`,
            { matcher: 'reviewer' },
          ),
        ],
        SubagentStop: [script('st', 'echo again >&2; exit 2', { matcher: 'reviewer' })],
      },
      [],
    )
    expect(await hooks.subagentStart?.({ id: 'a1', type: 'reviewer' })).toEqual({
      additionalContext: 'use pnpm',
    })
    expect(await hooks.subagentStart?.({ id: 'a2', type: 'Explore' })).toEqual({})
    expect(await hooks.subagentStop?.(false, { id: 'a1', type: 'reviewer' })).toEqual({ blocked: 'again' })
    expect(await hooks.subagentStop?.(false, { id: 'a2', type: 'Explore' })).toEqual({})
  })
})
