import { describe, expect, it } from 'vitest'
import { claudeToolName, engineMatcher, engineRule, engineToolName } from './tool-names.js'

describe("Claude Code's tool names", () => {
  it('map to the engine’s tools in rules, matchers and names, and back for callbacks', () => {
    expect(engineToolName('Task')).toBe('Agent')
    expect(engineToolName('BashOutput')).toBe('JobOutput')
    expect(engineToolName('KillBash')).toBe('JobKill')
    expect(engineToolName('LS')).toBe('Glob')
    expect(engineToolName('WebSearch')).toBe('WebSearch')
    expect(engineRule('Task(explore)')).toBe('Agent(explore)')
    expect(engineRule('KillShell')).toBe('JobKill')
    expect(engineRule('Bash(npm test:*)')).toBe('Bash(npm test:*)')
    expect(engineMatcher('Task|Bash')).toBe('Task|Agent|Bash')
    expect(engineMatcher('LS')).toBe('LS|Glob')
    expect(engineMatcher('mcp__.*')).toBe('mcp__.*')
    expect(new RegExp(engineMatcher('^(Task|Read)$')).test('Agent')).toBe(true)
    expect(claudeToolName('JobKill')).toBe('TaskStop')
    expect(claudeToolName('JobOutput')).toBe('TaskOutput')
    expect(claudeToolName('Read')).toBe('Read')
  })
})
