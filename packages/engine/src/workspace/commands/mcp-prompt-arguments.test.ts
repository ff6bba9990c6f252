import { describe, expect, it } from 'vitest'
import type { McpPromptCommand } from './catalog.js'
import { mapMcpPromptArguments } from './mcp-prompt-arguments.js'

const prompt: McpPromptCommand = {
  server: 'gh',
  prompt: 'review',
  description: 'Review a PR',
  arguments: [
    { name: 'repo', required: true },
    { name: 'pr', required: true },
    { name: 'focus', required: false },
  ],
}

describe('mapMcpPromptArguments', () => {
  it('maps words positionally and key=value by name', () => {
    expect(mapMcpPromptArguments(prompt, 'z/engine 42')).toEqual({
      ok: true,
      arguments: { repo: 'z/engine', pr: '42' },
    })
    expect(mapMcpPromptArguments(prompt, 'pr=7 z/engine "error handling"')).toEqual({
      ok: true,
      arguments: { pr: '7', repo: 'z/engine', focus: 'error handling' },
    })
  })

  it('gives a notice instead of a turn when a required argument is missing or there are too many', () => {
    expect(mapMcpPromptArguments(prompt, 'z/engine')).toEqual({
      ok: false,
      notice: 'Missing required argument pr. Usage: /mcp__gh__review <repo> <pr> [focus]',
    })
    expect(mapMcpPromptArguments(prompt, 'a b c d')).toMatchObject({
      ok: false,
      notice: expect.stringMatching(/^Too many arguments: "d"/),
    })
  })
})
