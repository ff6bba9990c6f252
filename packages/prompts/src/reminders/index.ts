import { renderTemplate } from '../template.js'
import agentMention from './agent-mention.md'
import answerCutOff from './answer-cut-off.md'
import checkFailing from './check-failing.md'
import checksFailed from './checks-failed.md'
import emptyAnswer from './empty-answer.md'
import filesChanged from './files-changed.md'
import jobFinished from './job-finished.md'
import mcpDeferredTools from './mcp-deferred-tools.md'
import modeChanged from './mode-changed.md'
import nestedInstructions from './nested-instructions.md'
import planMode from './plan-mode.md'
import planModeExited from './plan-mode-exited.md'
import promisedWork from './promised-work.md'
import repeatedFailure from './repeated-failure.md'
import repoMap from './repo-map.md'
import steering from './steering.md'
import todoNudge from './todo-nudge.md'
import todosPending from './todos-pending.md'

/** Each reminder's variables; the prompt test checks these match the `{{…}}` in the markdown. */
export interface ReminderVariables {
  planMode: Record<string, never>
  planModeExited: { mode: string }
  modeChanged: { mode: string }
  todoNudge: { todos: string }
  filesChanged: { files: string }
  jobFinished: { jobId: string; description: string; status: string }
  nestedInstructions: { path: string; content: string }
  steering: { message: string }
  agentMention: { agentType: string }
  repoMap: { map: string }
  mcpDeferredTools: { tools: string }
  checksFailed: { failures: string; remaining: string }
  emptyAnswer: Record<string, never>
  answerCutOff: { limit: string }
  repeatedFailure: { tool: string; count: string; error: string }
  todosPending: { todos: string }
  promisedWork: { sentence: string }
  checkFailing: { failure: string }
}

/** The name of a reminder template. */
export type ReminderName = keyof ReminderVariables

/** Reminder templates (markdown with `{{var}}` placeholders), keyed by name. */
export const REMINDER_TEMPLATES: Readonly<Record<ReminderName, string>> = {
  planMode: planMode.trim(),
  planModeExited: planModeExited.trim(),
  modeChanged: modeChanged.trim(),
  todoNudge: todoNudge.trim(),
  filesChanged: filesChanged.trim(),
  jobFinished: jobFinished.trim(),
  nestedInstructions: nestedInstructions.trim(),
  steering: steering.trim(),
  agentMention: agentMention.trim(),
  repoMap: repoMap.trim(),
  mcpDeferredTools: mcpDeferredTools.trim(),
  checksFailed: checksFailed.trim(),
  emptyAnswer: emptyAnswer.trim(),
  answerCutOff: answerCutOff.trim(),
  repeatedFailure: repeatedFailure.trim(),
  todosPending: todosPending.trim(),
  promisedWork: promisedWork.trim(),
  checkFailing: checkFailing.trim(),
}

/** Renders a reminder's text (without the `<system-reminder>` wrapper). */
export function reminderText<Name extends ReminderName>(
  name: Name,
  variables: ReminderVariables[Name],
): string {
  return renderTemplate(REMINDER_TEMPLATES[name], variables as Record<string, string>)
}

/** Wraps text as a `<system-reminder>` note, the form reminders take on the last user message. */
export function wrapReminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`
}

/** Renders a reminder and wraps it as a `<system-reminder>` note. */
export function renderReminder<Name extends ReminderName>(
  name: Name,
  variables: ReminderVariables[Name],
): string {
  return wrapReminder(reminderText(name, variables))
}
