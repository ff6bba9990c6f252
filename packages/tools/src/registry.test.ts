import { TOOL_DESCRIPTIONS } from '@z-engine/prompts'
import { describe, expect, it } from 'vitest'
import { TOOL_NAMES } from './names.js'
import type { Ports } from './ports.js'
import { builtinTools } from './registry.js'
import { makeTestCtx } from './testing.js'
import { actionFor } from './tool-actions.js'
import type { WebSearchBackend } from './web/search-backend.js'

const unused = (): never => {
  throw new Error('not called in this test')
}
const everyPort: Ports = {
  agents: {
    catalog: () => [{ name: 'general', description: 'General helper' }],
    spawn: unused,
    applyChanges: unused,
  },
  interaction: { ask: unused, proposePlan: unused, updateTodos: unused },
  jobs: { spawnShell: unused, read: unused, kill: unused, list: () => [] },
  skills: { list: () => [], load: unused },
  checks: { list: unused, run: unused },
  lsp: { covers: () => false, query: unused, diagnosticsAfterWrite: unused },
  mcp: { listResources: unused, readResource: unused, callTool: unused },
  sideModel: { complete: unused },
}
const backend: WebSearchBackend = { name: 'test', search: async () => ({ ok: true, hits: [] }) }

describe('builtinTools', () => {
  it('lists all 22 tools in the stable order when every service is on', () => {
    const tools = builtinTools({ ports: everyPort, webSearch: backend })
    expect(tools.map((tool) => tool.name)).toEqual([...TOOL_NAMES])
    expect(TOOL_NAMES).toHaveLength(22)
  })
  it('leaves out tools whose service is off, keeping the order', () => {
    const tools = builtinTools({ ports: {} })
    expect(tools.map((tool) => tool.name)).toEqual([
      'Read',
      'Write',
      'Edit',
      'MultiEdit',
      'NotebookEdit',
      'Glob',
      'Grep',
      'Bash',
      'WebFetch',
    ])
    expect(builtinTools({ ports: {}, webFetch: false }).map((tool) => tool.name)).not.toContain('WebFetch')
  })
  it('gives every tool a description from prompts and an object input schema', () => {
    for (const tool of builtinTools({ ports: everyPort, webSearch: backend })) {
      expect(TOOL_DESCRIPTIONS[tool.name], tool.name).toBeDefined()
      expect(tool.description().length, tool.name).toBeGreaterThan(50)
      expect(tool.inputSchema.type, tool.name).toBe('object')
    }
    const agent = builtinTools({ ports: everyPort }).find((tool) => tool.name === 'Agent')
    expect(agent?.description()).toContain('general: General helper')
  })
  it('maps actions through actionFor, conservative for malformed input', () => {
    const ctx = makeTestCtx()
    const samples: Array<Record<string, unknown>> = [
      {},
      { file_path: 'a.ts', old_string: 'x', new_string: 'y' },
      { command: 'ls', run_in_background: true },
      { notebook_path: 'n.ipynb', new_source: '' },
      { pattern: '*.ts', path: '../other' },
      { job_id: 'bash_1' },
    ]
    for (const tool of builtinTools({ ports: everyPort, webSearch: backend })) {
      for (const input of samples)
        expect(tool.action(input, ctx), tool.name).toEqual(actionFor(tool.name, input, ctx))
    }
    ctx.cleanup()
  })
  it('marks read-only tools concurrency-safe and writers not', () => {
    const byName = new Map(builtinTools({ ports: everyPort }).map((tool) => [tool.name, tool]))
    for (const name of ['Read', 'Glob', 'Grep', 'JobOutput']) {
      expect(byName.get(name)?.isReadOnly({}), name).toBe(true)
      expect(byName.get(name)?.isConcurrencySafe({}), name).toBe(true)
    }
    for (const name of ['Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'Bash', 'JobKill']) {
      expect(byName.get(name)?.isReadOnly({}), name).toBe(false)
      expect(byName.get(name)?.isConcurrencySafe({}), name).toBe(false)
    }
  })
})
