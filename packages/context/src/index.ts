export type { ContextBreakdown, ContextLayer } from './breakdown.js'
export { contextBreakdown, LAYER_ORDER } from './breakdown.js'
export type { MicroClearInput, MicroClearPlan, PlannedClear } from './compaction/micro.js'
export { applyMicroClear, clearedMarker, isClearedResult, planMicroClear } from './compaction/micro.js'
export type { CompactionState } from './compaction/result.js'
export {
  applySummary,
  buildSummaryMessage,
  compactionMarker,
  renderSummaryText,
  SUMMARY_LABEL,
} from './compaction/result.js'
export type { LoadedSkill } from './compaction/skills.js'
export { loadedSkillsIn, mergeLoadedSkills, SKILL_TOOL_NAME } from './compaction/skills.js'
export type { SummaryPlan, SummaryPlanInput } from './compaction/summary.js'
export {
  DEFAULT_KEEP_RECENT_SHARE,
  MIN_KEPT_MESSAGES,
  MIN_SUMMARIZED_MESSAGES,
  planSummary,
} from './compaction/summary.js'
export type { TranscriptOptions } from './compaction/transcript.js'
export { buildSummaryPrompt, renderTranscript } from './compaction/transcript.js'
export type { Announcement } from './instructions/announce.js'
export { AnnouncementTracker, nestedFolders } from './instructions/announce.js'
export type { GlobMatcher } from './instructions/glob.js'
export { createGlobMatcher, normalizeRelative } from './instructions/glob.js'
export { expandImports, findImports, stripHtmlComments } from './instructions/imports.js'
export { renderFile, renderInstructions, renderRule } from './instructions/render.js'
export type { RuleResult } from './instructions/rule.js'
export { claudeRuleFromFrontmatter, ruleFromFrontmatter, ruleMatches } from './instructions/rule.js'
export { decodeInstructionBytes, memoryBullet, parseMemoryNote, truncateUtf8 } from './instructions/text.js'
export type { InstructionFile, InstructionScope, Rule } from './instructions/types.js'
export {
  DEFAULT_COMPACT_AT_PERCENT,
  DEFAULT_CONTEXT_WINDOW,
  DEFAULT_KEEP_RECENT_TOOL_RESULTS,
  DEFAULT_REPO_MAP_CHARS,
  INSTRUCTION_MAX_BYTES,
  INSTRUCTION_MAX_IMPORT_HOPS,
  MAX_COMPACT_AT_PERCENT,
  MEDIA_TOKENS,
  MICRO_CLEAR_AT_PERCENT,
  MICRO_CLEAR_MIN_CHARS,
  MIN_COMPACT_AT_PERCENT,
  REPO_MAP_MAX_FILE_BYTES,
  REPO_MAP_MAX_FILES,
  REPO_MAP_MAX_PATHS,
} from './limits.js'
export type { MeterInput, MeterReading } from './meter.js'
export { ContextMeter, promptTokensOf } from './meter.js'
export type { OutputCategory } from './output-budget/categories.js'
export { DEFAULT_OUTPUT_BUDGETS, OUTPUT_CATEGORIES } from './output-budget/categories.js'
export type { BudgetedOutput } from './output-budget/plan.js'
export { planOutputBudget } from './output-budget/plan.js'
export type { CompactAtPercentResult, PressureLevel } from './pressure.js'
export { checkCompactAtPercent, pressureLevel } from './pressure.js'
export type { BreakpointPlan } from './prompt/cache.js'
export { planBreakpoints } from './prompt/cache.js'
export type { RequestPrefix } from './prompt/prefix.js'
export { prefixBreaks } from './prompt/prefix.js'
export { appendReminders, wrapSystemReminder } from './prompt/reminders.js'
export type { EnvironmentSnapshot, SystemParts, SystemSection, SystemSectionKind } from './prompt/system.js'
export { buildSystem, renderEnvironment, SYSTEM_SECTION_KINDS } from './prompt/system.js'
export type { RepoMapLanguage } from './repo-map/languages.js'
export {
  GRAMMAR_FILES,
  languageForPath,
  REPO_MAP_LANGUAGES,
  TREE_SITTER_RUNTIME_FILE,
} from './repo-map/languages.js'
export type { OutlineResult, Outliner, OutlinerInput } from './repo-map/outliner.js'
export { countIdentifiers, createOutliner, importedReferences } from './repo-map/outliner.js'
export { rankFiles } from './repo-map/rank.js'
export { renderRepoMap } from './repo-map/render.js'
export type { Definition, DefinitionKind, FileOutline } from './repo-map/types.js'
export {
  estimateBlockTokens,
  estimateMessagesTokens,
  estimateMessageTokens,
  estimateSystemTokens,
  estimateTextTokens,
  estimateToolsTokens,
} from './tokens.js'
