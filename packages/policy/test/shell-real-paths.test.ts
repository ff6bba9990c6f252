import type { PermissionMode } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { decide, type PolicyContext, pathFactsFromLinks } from '../src/index.js'
import { context, HOME, ROOT } from './helpers.js'

// The links a hostile repository ships (issue 12 finding 9), as the engine reports them.
const LINKS: Record<string, string> = {
  [`${ROOT}/lnk`]: HOME,
  [`${ROOT}/rc`]: `${HOME}/.bashrc`,
  [`${ROOT}/g`]: '.git',
  [`${ROOT}/secret`]: '.env',
  [`${ROOT}/loop`]: 'loop2',
  [`${ROOT}/loop2`]: 'loop',
}

function withLinks(mode: PermissionMode, rules: { allow?: string[]; deny?: string[] } = {}): PolicyContext {
  return context(mode, rules, { pathFacts: pathFactsFromLinks(LINKS) })
}

function bash(command: string, ctx: PolicyContext): string {
  return decide({ type: 'execute', command, cwd: ROOT }, ctx, { toolName: 'Bash' }).decision
}

describe('shell lines are judged on the real paths of the files they name (issue 12 finding 9)', () => {
  it.each(['cat lnk/.ssh/id_rsa', 'head -n 5 lnk/.aws/credentials', 'grep -rn key lnk/.ssh', 'wc -l rc'])(
    '%s reads outside the project through a link: asks',
    (line) => {
      expect(bash(line, withLinks('default'))).toBe('ask')
    },
  )

  it('a Read deny rule holds through a link in every mode, bypass included', () => {
    for (const mode of ['default', 'acceptEdits', 'bypass'] as const)
      expect(bash('cat secret', withLinks(mode, { deny: ['Read(./.env)'] }))).toBe('deny')
  })

  it('writing into .git through a link is a protected change', () => {
    expect(bash('echo x > g/hooks/pre-commit', withLinks('acceptEdits'))).toBe('ask')
  })

  it('a link loop is never proven read-only', () => {
    expect(bash('cat loop/x', withLinks('default'))).toBe('ask')
  })

  it('files that are not links keep their everyday verdicts', () => {
    expect(bash('cat src/a.ts', withLinks('default'))).toBe('allow')
    expect(bash('ls -la', withLinks('default'))).toBe('allow')
    expect(bash('grep -rn foo src', withLinks('default'))).toBe('allow')
  })
})
