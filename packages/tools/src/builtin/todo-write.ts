import { toolDescription } from '@z-engine/prompts'
import type { TodoItem } from '@z-engine/protocol'
import { portMissing } from '../port-results.js'
import { errorResult, textResult } from '../results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'

/** TodoWrite's input (Claude Code's shape): the whole list, replacing the previous one. */
export interface TodoWriteInput {
  todos: Array<{ content: string; status: TodoItem['status']; activeForm: string }>
}

const NAME = 'TodoWrite'

/** TodoWrite: replaces the session's todo list through the InteractionPort. */
export const todoWriteTool: Tool<TodoWriteInput> = {
  name: NAME,
  description: () => toolDescription(NAME),
  inputSchema: {
    type: 'object',
    properties: {
      todos: {
        type: 'array',
        description: 'The updated todo list (replaces the previous one).',
        items: {
          type: 'object',
          properties: {
            content: {
              type: 'string',
              minLength: 1,
              description: 'What to do, imperative ("Run the tests").',
            },
            status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
            activeForm: {
              type: 'string',
              minLength: 1,
              description: 'Present continuous, shown while in progress ("Running the tests").',
            },
          },
          required: ['content', 'status', 'activeForm'],
        },
      },
    },
    required: ['todos'],
    additionalProperties: false,
  },
  isReadOnly: () => true,
  // The list is one shared state: two writes in one batch must not interleave.
  isConcurrencySafe: () => false,
  action: (input, ctx) => actionFor(NAME, input, ctx),
  title: (input) => `Update todos (${Array.isArray(input.todos) ? input.todos.length : 0})`,
  preview: async () => undefined,
  async call(input, ctx) {
    const interaction = ctx.ports.interaction
    if (interaction === undefined) return portMissing(NAME, 'user interaction')
    const todos = Array.isArray(input.todos) ? input.todos : []
    const blank = todos.findIndex((todo) => todo.content.trim() === '' || todo.activeForm.trim() === '')
    if (blank !== -1) {
      return errorResult(
        'invalid_input',
        `Todo ${blank + 1} has an empty content or activeForm; give both as text.`,
      )
    }
    const active = todos.filter((todo) => todo.status === 'in_progress')
    if (active.length > 1) {
      const names = active.map((todo) => `'${todo.content}'`).join(', ')
      return errorResult(
        'invalid_input',
        `${active.length} todos are in_progress (${names}); keep exactly one in progress and mark the others pending or completed.`,
      )
    }
    const items: TodoItem[] = todos.map((todo) => ({
      content: todo.content,
      status: todo.status,
      activeForm: todo.activeForm,
    }))
    try {
      await interaction.updateTodos(items)
    } catch (error) {
      return errorResult('port_error', `Could not update the todo list: ${String(error)}`)
    }
    const count = (status: TodoItem['status']) => items.filter((todo) => todo.status === status).length
    const summary =
      items.length === 0
        ? 'The todo list is now empty.'
        : `The todo list is updated: ${count('completed')} completed, ${count('in_progress')} in progress, ${count('pending')} pending.`
    const next =
      items.length > 0 && count('completed') < items.length
        ? ' Keep it current: mark each item completed as soon as it is done.'
        : ''
    return textResult(summary + next, { details: { todos: items } })
  },
}
