// Lets packages that compile these sources (via the @z-engine/source condition) import `*.md` too.
/// <reference path="./markdown.d.ts" />
export type { BuiltinPromptFile } from './agents/index.js'
export { BUILTIN_AGENTS } from './agents/index.js'
export {
  COMPACT_FOCUS_TEMPLATE,
  COMPACT_PROMPT,
  compactPrompt,
  WEB_FETCH_EXTRACT_TEMPLATE,
} from './auxiliary/index.js'
export { BASE_PROMPT } from './base.js'
export { BUILTIN_COMMANDS } from './commands/index.js'
export type { FrontmatterResult } from './frontmatter.js'
export { parseFrontmatter } from './frontmatter.js'
export type { ReminderName, ReminderVariables } from './reminders/index.js'
export { REMINDER_TEMPLATES, reminderText, renderReminder, wrapReminder } from './reminders/index.js'
export { renderTemplate, templateVariables } from './template.js'
export { TOOL_DESCRIPTIONS, toolDescription } from './tools/index.js'
