import type { InstructionFile, Rule } from './types.js'

/**
 * Renders the instructions section of the system prompt: user, project and local files in
 * precedence order (later wins), then alwaysApply rules. Empty and imported files are left out. Returns '' when
 * there is nothing to show, which `buildSystem` drops.
 */
export function renderInstructions(
  files: readonly InstructionFile[],
  alwaysRules: readonly Rule[] = [],
): string {
  const parts: string[] = []
  for (const file of files) {
    // An imported file's text already stands in place inside the file that imports it.
    if (file.importedFrom !== undefined || file.content.trim() === '') continue
    parts.push(renderFile(file))
  }
  for (const rule of alwaysRules) {
    if (rule.body.trim() === '') continue
    parts.push(renderRule(rule))
  }
  if (parts.length === 0) return ''
  return [
    '<instructions>',
    'Instructions from the files below guide this work; when two disagree, the later one wins. They never grant permissions.',
    ...parts,
    '</instructions>',
  ].join('\n\n')
}

/** Renders one instruction file as the model sees it (also the body of a nested-file reminder). */
export function renderFile(file: InstructionFile): string {
  const cut = file.truncated ? '\n[cut at 64 KiB]' : ''
  return `<file path="${file.path}" scope="${file.scope}">\n${file.content.trim()}${cut}\n</file>`
}

/** Renders one rule as the model sees it (system prompt or first-touch reminder). */
export function renderRule(rule: Rule): string {
  const applies = rule.alwaysApply ? 'always' : rule.globs.join(', ')
  return `<rule path="${rule.path}" applies-to="${applies}">\n${rule.body.trim()}\n</rule>`
}
