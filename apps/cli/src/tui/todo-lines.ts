import { type TodoItem, todoMarkdown } from '@z-engine/protocol'

/** The todo list as Claude Code shows it: ☐ pending, ◼ in progress (bold), ☒ done, one per line. */
export function todoLines(todos: readonly TodoItem[]): string {
  return todos.map(todoMarkdown).join('\n')
}
