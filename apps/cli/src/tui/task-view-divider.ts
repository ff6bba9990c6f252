import type { TaskView } from '@z-engine/protocol'

/** The chat's divider for a task view (decisions_task_view), live and when a session is resumed. */
export function taskViewDivider(view: TaskView): string {
  if (view.restored) return 'Full history restored'
  return `Task view: kept ${view.keptMessageIds.length} earlier messages, left out the rest — /full-history to restore`
}
