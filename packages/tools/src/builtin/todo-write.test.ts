import { afterEach, describe, expect, it } from 'vitest'
import type { Ports } from '../ports.js'
import { RecordingInteraction } from '../recording-ports.js'
import { makeTestCtx, resultText } from '../testing.js'
import { todoWriteTool } from './todo-write.js'

const signal = new AbortController().signal
const contexts: Array<ReturnType<typeof makeTestCtx>> = []
const ctxWith = (ports: Ports) => {
  const ctx = makeTestCtx({ ports })
  contexts.push(ctx)
  return ctx
}
afterEach(() => {
  for (const ctx of contexts.splice(0)) ctx.cleanup()
})

describe('TodoWrite', () => {
  const todos = [
    { content: 'Run the tests', status: 'completed' as const, activeForm: 'Running the tests' },
    { content: 'Fix the parser', status: 'in_progress' as const, activeForm: 'Fixing the parser' },
    { content: 'Update the docs', status: 'pending' as const, activeForm: 'Updating the docs' },
  ]

  it('replaces the todo list through the interaction port and summarizes it', async () => {
    const interaction = new RecordingInteraction()
    const result = await todoWriteTool.call({ todos }, ctxWith({ interaction }), signal)
    expect(interaction.todoUpdates).toEqual([todos])
    expect(resultText(result)).toContain('1 completed, 1 in progress, 1 pending')
  })

  it('refuses two items in progress and names them, without touching the list', async () => {
    const interaction = new RecordingInteraction()
    const input = { todos: todos.map((todo) => ({ ...todo, status: 'in_progress' as const })) }
    const result = await todoWriteTool.call(input, ctxWith({ interaction }), signal)
    expect(result.ok).toBe(false)
    expect(resultText(result)).toMatch(
      /3 todos are in_progress \('Run the tests', 'Fix the parser', 'Update the docs'\)/,
    )
    expect(interaction.todoUpdates).toEqual([])
  })

  it('accepts an empty list (clearing it) and refuses blank content', async () => {
    const interaction = new RecordingInteraction()
    expect(resultText(await todoWriteTool.call({ todos: [] }, ctxWith({ interaction }), signal))).toContain(
      'empty',
    )
    const blank = await todoWriteTool.call(
      { todos: [{ content: '  ', status: 'pending', activeForm: 'x' }] },
      ctxWith({ interaction }),
      signal,
    )
    expect(resultText(blank)).toContain('Todo 1 has an empty content')
    expect(interaction.todoUpdates).toEqual([[]])
  })

  it('opts out of concurrency, is read-only, and maps to a read-only action', () => {
    const ctx = ctxWith({})
    expect(todoWriteTool.isConcurrencySafe({ todos })).toBe(false)
    expect(todoWriteTool.isReadOnly({ todos })).toBe(true)
    expect(todoWriteTool.action({ todos }, ctx)).toEqual({
      type: 'other',
      toolName: 'TodoWrite',
      readOnly: true,
    })
    expect(todoWriteTool.title({ todos }, ctx)).toBe('Update todos (3)')
    expect(todoWriteTool.description()).toContain('activeForm')
  })

  it('says what is missing when the session has no interaction port', async () => {
    expect(resultText(await todoWriteTool.call({ todos }, ctxWith({}), signal))).toContain('not available')
  })
})
