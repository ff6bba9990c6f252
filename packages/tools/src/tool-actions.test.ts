import { describe, expect, it } from 'vitest'
import { TOOL_NAMES } from './names.js'
import { actionFor } from './tool-actions.js'

const ctx = { projectRoot: '/proj', cwd: '/proj/src', home: '/home/u' }

describe('actionFor', () => {
  it.each([
    ['Read', { file_path: 'a.ts' }, { type: 'read', paths: ['/proj/src/a.ts'] }],
    ['Read', { file_path: '../.env' }, { type: 'read', paths: ['/proj/.env'] }],
    ['Read', { file_path: '~/.ssh/id_rsa' }, { type: 'read', paths: ['/home/u/.ssh/id_rsa'] }],
    [
      'Read',
      { file_path: 42 },
      { type: 'other', toolName: 'Read', readOnly: false, malformed: 'file_path must be a non-empty string' },
    ],
    [
      'Read',
      {},
      { type: 'other', toolName: 'Read', readOnly: false, malformed: 'file_path must be a non-empty string' },
    ],
    ['Write', { file_path: '/etc/passwd', content: '' }, { type: 'write', paths: ['/etc/passwd'] }],
    [
      'Write',
      { file_path: 7 },
      {
        type: 'other',
        toolName: 'Write',
        readOnly: false,
        malformed: 'file_path must be a non-empty string',
      },
    ],
    [
      'Write',
      null,
      { type: 'other', toolName: 'Write', readOnly: false, malformed: 'the input is not a JSON object' },
    ],
    ['Edit', { file_path: 'x/../../../y' }, { type: 'write', paths: ['/y'] }],
    ['MultiEdit', { file_path: 'm.ts', edits: [] }, { type: 'write', paths: ['/proj/src/m.ts'] }],
    ['NotebookEdit', { notebook_path: 'n.ipynb' }, { type: 'write', paths: ['/proj/src/n.ipynb'] }],
    [
      'NotebookEdit',
      {},
      {
        type: 'other',
        toolName: 'NotebookEdit',
        readOnly: false,
        malformed: 'notebook_path must be a non-empty string',
      },
    ],
    ['Glob', { pattern: '**/*.ts' }, { type: 'read', paths: ['/proj/src'] }],
    ['Glob', { pattern: '../../etc/*' }, { type: 'read', paths: ['/proj/src', '/etc'] }],
    ['Glob', { pattern: '/var/log/**' }, { type: 'read', paths: ['/proj/src', '/var/log'] }],
    ['Glob', { pattern: '*', path: '~' }, { type: 'read', paths: ['/home/u'] }],
    ['Grep', { pattern: 'x', path: '/tmp' }, { type: 'read', paths: ['/tmp'] }],
    [
      'Grep',
      { pattern: 'x', path: 3 },
      { type: 'other', toolName: 'Grep', readOnly: false, malformed: 'path must be a string' },
    ],
    [
      'Grep',
      { path: 'src' },
      { type: 'other', toolName: 'Grep', readOnly: false, malformed: 'pattern must be a string' },
    ],
    ['LSP', { operation: 'workspaceSymbol', query: 'x' }, { type: 'read', paths: ['/proj'] }],
    [
      'LSP',
      { operation: 'hover', filePath: 5 },
      { type: 'other', toolName: 'LSP', readOnly: false, malformed: 'filePath must be a non-empty string' },
    ],
    ['LSP', { operation: 'hover', file_path: 'a.ts' }, { type: 'read', paths: ['/proj/src/a.ts'] }],
    ['LSP', { operation: 'hover', filePath: 'b.ts' }, { type: 'read', paths: ['/proj/src/b.ts'] }],
    ['Skill', { skill: '/commit' }, { type: 'loadSkill', name: 'commit' }],
    ['Bash', { command: 'ls' }, { type: 'execute', command: 'ls', cwd: '/proj/src' }],
    [
      'Bash',
      { command: 'npm start', run_in_background: true },
      { type: 'execute', command: 'npm start', cwd: '/proj/src', background: true },
    ],
    [
      'Bash',
      { command: ['rm', '-rf'] },
      { type: 'other', toolName: 'Bash', readOnly: false, malformed: 'command must be a string' },
    ],
    ['WebFetch', { url: 'https://example.com' }, { type: 'fetch', url: 'https://example.com' }],
    ['WebFetch', {}, { type: 'fetch', url: 'invalid:' }],
    ['WebSearch', { query: 'q' }, { type: 'webSearch', query: 'q' }],
    ['Agent', { subagent_type: 'explore', prompt: 'p' }, { type: 'startAgent', agentType: 'explore' }],
    ['Agent', { prompt: 'p' }, { type: 'startAgent', agentType: 'general' }],
    ['Skill', { skill: 'pdf' }, { type: 'loadSkill', name: 'pdf' }],
    ['ApplyAgentChanges', { agent_id: 'a1' }, { type: 'write', paths: ['/proj'] }],
    [
      'ReadMcpResource',
      { server: 'docs', uri: 'x://y' },
      { type: 'mcpCall', server: 'docs', tool: 'ReadMcpResource', readOnly: true, resource: true },
    ],
    [
      'ListMcpResources',
      {},
      { type: 'mcpCall', server: '', tool: 'ListMcpResources', readOnly: true, resource: true },
    ],
    ['TodoWrite', { todos: [] }, { type: 'other', toolName: 'TodoWrite', readOnly: true }],
    ['AskUserQuestion', {}, { type: 'other', toolName: 'AskUserQuestion', readOnly: true }],
    ['ExitPlanMode', { plan: 'p' }, { type: 'other', toolName: 'ExitPlanMode', readOnly: true }],
    ['JobOutput', { job_id: 'j' }, { type: 'other', toolName: 'JobOutput', readOnly: true }],
    ['JobKill', { job_id: 'j' }, { type: 'other', toolName: 'JobKill', readOnly: false }],
    ['Verify', { action: 'list' }, { type: 'other', toolName: 'Verify', readOnly: true }],
    ['Verify', { action: 'run' }, { type: 'other', toolName: 'Verify', readOnly: false }],
    ['mcp__github__create_issue', {}, { type: 'mcpCall', server: 'github', tool: 'create_issue' }],
    ['mcp__my_srv__do__it', {}, { type: 'mcpCall', server: 'my_srv', tool: 'do__it' }],
    ['mcp__broken', {}, { type: 'other', toolName: 'mcp__broken', readOnly: false }],
    ['SomethingNew', {}, { type: 'other', toolName: 'SomethingNew', readOnly: false }],
  ])('%s %j', (tool, input, expected) => {
    expect(actionFor(tool, input, ctx)).toEqual(expected)
  })

  it('maps malformed input of a file tool to a malformed action (it asks), never a guessed path', () => {
    for (const input of [
      undefined,
      null,
      1,
      'x',
      [],
      {},
      { file_path: null },
      { file_path: {} },
      { file_path: '' },
    ]) {
      for (const tool of ['Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit']) {
        const action = actionFor(tool, input, ctx)
        expect(action.type === 'other' && action.malformed !== undefined && !action.readOnly).toBe(true)
      }
    }
  })

  it('maps every built-in tool explicitly (none falls through to the unknown-tool default)', () => {
    const unknown = actionFor('NoSuchTool', {}, ctx)
    for (const name of TOOL_NAMES) {
      if (name === 'Bash' || name === 'JobKill' || name === 'Verify') continue
      expect(actionFor(name, {}, ctx), name).not.toEqual({ ...unknown, toolName: name })
    }
  })
})
