import { DEFAULT_SETTINGS } from '@z-engine/protocol'
import type { Tool } from '@z-engine/tools'
import { describe, expect, it } from 'vitest'
import { agentModelRef } from './agent-model.js'
import { subagentTools, toolPatternMatches } from './agent-tools.js'

const named = (...names: string[]) => names.map((name) => ({ name }) as Tool)
const ALL = named(
  'Read',
  'Write',
  'Bash',
  'TodoWrite',
  'AskUserQuestion',
  'ExitPlanMode',
  'Agent',
  'ApplyAgentChanges',
  'mcp__github__issues',
  'mcp__github__pulls',
)
const names = (tools: Tool[]) => tools.map((tool) => tool.name)

describe('subagent tools', () => {
  it('never offers the user-facing tools, and drops Agent at the depth limit', () => {
    expect(names(subagentTools(ALL, {}, 1, 2))).toEqual([
      'Read',
      'Write',
      'Bash',
      'TodoWrite',
      'Agent',
      'mcp__github__issues',
      'mcp__github__pulls',
    ])
    expect(names(subagentTools(ALL, {}, 2, 2))).not.toContain('Agent')
  })

  it('applies the allow list and the deny list, a trailing * matching by prefix', () => {
    expect(names(subagentTools(ALL, { tools: ['Read', 'mcp__github__*'] }, 1, 2))).toEqual([
      'Read',
      'mcp__github__issues',
      'mcp__github__pulls',
    ])
    expect(names(subagentTools(ALL, { disallowedTools: ['Write', 'mcp__*'] }, 1, 2))).toEqual([
      'Read',
      'Bash',
      'TodoWrite',
      'Agent',
    ])
    // An allow list cannot bring back what subagents never get.
    expect(names(subagentTools(ALL, { tools: ['AskUserQuestion', 'Read'] }, 1, 2))).toEqual(['Read'])
    expect(toolPatternMatches('Rea', 'Read')).toBe(false)
    // `mcp__<server>` names every tool of that server, as in permission rules; not another server's.
    expect(names(subagentTools(ALL, { tools: ['Read', 'mcp__github'] }, 1, 2))).toEqual([
      'Read',
      'mcp__github__issues',
      'mcp__github__pulls',
    ])
    expect(toolPatternMatches('mcp__git', 'mcp__github__issues')).toBe(false)
    expect(names(subagentTools(ALL, { disallowedTools: ['mcp__github'] }, 1, 2))).not.toContain(
      'mcp__github__pulls',
    )
    expect(toolPatternMatches(' Read ', 'Read')).toBe(true)
    // Claude Code's `Bash(git add *)` in an agent's tools names the Bash tool.
    expect(toolPatternMatches('Bash(git add *)', 'Bash')).toBe(true)
    expect(toolPatternMatches('Bash(git add *)', 'BashOutput')).toBe(false)
  })
})

describe('agent model', () => {
  const settings = { ...DEFAULT_SETTINGS, model: { ...DEFAULT_SETTINGS.model, fast: 'anthropic/haiku' } }
  const context = { callerModel: 'caller/model', sessionModel: 'session/model', settings }

  it('resolves inherit, roles and ids; the call overrides the definition', () => {
    expect(agentModelRef(undefined, 'inherit', context)).toBe('caller/model')
    expect(agentModelRef(undefined, 'fast', context)).toBe('anthropic/haiku')
    expect(agentModelRef(undefined, 'main', context)).toBe('session/model')
    // An unset role falls back to the caller's model.
    expect(agentModelRef(undefined, 'review', context)).toBe('caller/model')
    expect(agentModelRef(undefined, 'openai/gpt-x', context)).toBe('openai/gpt-x')
    expect(agentModelRef('inherit', 'fast', context)).toBe('caller/model')
  })
})
