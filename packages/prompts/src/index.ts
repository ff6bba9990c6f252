// Lets packages that compile these sources (via the @z-engine/source condition) import `*.md` too.
/// <reference path="./markdown.d.ts" />

/** A prompt file shipped in the package: name, package path and markdown. */
export type { BuiltinPromptFile } from './agents/index.js'
/** The five built-in agent definitions (general, explore, plan, review, verify), markdown with frontmatter. */
export { BUILTIN_AGENTS } from './agents/index.js'
/** Auxiliary prompts: compaction (with an optional focus) and WebFetch extraction. */
export {
  COMPACT_FOCUS_TEMPLATE,
  COMPACT_PROMPT,
  compactPrompt,
  WEB_FETCH_EXTRACT_TEMPLATE,
} from './auxiliary/index.js'
/** The base system prompt. */
export { BASE_PROMPT } from './base.js'
/** Built-in prompt commands (`/init`, `/review`, `/commit`), markdown templates with frontmatter. */
export { BUILTIN_COMMANDS } from './commands/index.js'
/** The result of splitting and parsing a markdown file's YAML frontmatter. */
export type { FrontmatterResult } from './frontmatter.js'
/** Splits `---` YAML frontmatter from markdown; never throws. */
export { type FrontmatterOptions, parseFrontmatter } from './frontmatter.js'
/** Reminder names and the variables each one takes. */
export type { ReminderName, ReminderVariables } from './reminders/index.js'
/** Reminder templates and their renderers (`renderReminder` wraps in `<system-reminder>`). */
export { REMINDER_TEMPLATES, reminderText, renderReminder, wrapReminder } from './reminders/index.js'
/** The `{{var}}` renderer and the variables a template uses. */
export { renderTemplate, templateVariables } from './template.js'
/** Tool descriptions, one markdown file per tool. */
export { TOOL_DESCRIPTIONS, toolDescription } from './tools/index.js'
