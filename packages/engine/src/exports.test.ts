import { describe, expect, it } from 'vitest'
import * as claudeAgentSdk from './claude-agent-sdk.js'
import * as entry from './index.js'
import * as internal from './internal.js'

describe('public surface', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(entry).sort()).toMatchInlineSnapshot(`
      [
        "Engine",
        "EngineError",
        "ToolDefinitionError",
        "createDefaultClientFactory",
        "defineTool",
        "run",
      ]
    `)
  })

  it('keeps the internal subpath apart: nothing is exported from both entries', () => {
    const shared = Object.keys(internal).filter((name) => name in entry)
    expect(shared).toEqual([])
    expect(Object.keys(internal)).toContain('loadSettings')
  })

  it('offers the Claude Agent SDK names on its subpath', () => {
    expect(Object.keys(claudeAgentSdk).sort()).toEqual(['createSdkMcpServer', 'query', 'tool'])
  })
})
