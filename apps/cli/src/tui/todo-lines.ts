import type { TodoItem } from '@z-engine/protocol'

/** The todo list as Claude Code shows it: ☐ pending, ◼ in progress (bold), ☒ done, one per line. */
export function todoLines(todos: readonly TodoItem[]): string {
  return todos.map(todoLine).join('\n')
}

function todoLine(todo: TodoItem): string {
  switch (todo.status) {
    case 'pending':
      return `☐ ${todo.content}`
    case 'in_progress':
      // Bold through the markdown renderer; a `*` inside the text would end the span early.
      return `**◼ ${todo.content.replaceAll('*', '∗')}**`
    case 'completed':
      return `☒ ${todo.content}`
    default: {
      const unreachable: never = todo.status
      return unreachable
    }
  }
}
