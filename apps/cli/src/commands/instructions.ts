import { loadInstructions, loadRules } from '@z-engine/engine/definitions'
import { EXIT } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { inspectContext } from '../inspect/inspect-context.js'
import { printJson, printLines } from '../output.js'

const HELP = `Usage: z-engine instructions [--json] [--cwd DIR] [--content]

The instruction files a session in DIR loads (user, project from the repository root down, local;
Claude Code's CLAUDE.md files too with compat.claude), in order, each import right after the file
importing it (its text is expanded in place there); then the rules in the config folder's rules/
and .z-engine/rules (and .claude/rules with compat.claude); then what was skipped and why.
--content prints each file's text too (always included with --json).
`

/** `z-engine instructions`: which instruction files and rules were loaded, in order. */
export async function main(io: CommandIo): Promise<number> {
  const context = await inspectContext(io, HELP, { content: { type: 'boolean' } })
  if (!context) return EXIT.ok
  const instructions = await loadInstructions({
    projectRoot: context.projectRoot,
    home: context.home,
    configDir: context.configDir,
    compatClaude: context.loaded.settings.compat.claude,
  })
  const rules = await loadRules({
    projectRoot: context.projectRoot,
    home: context.home,
    configDir: context.configDir,
    compatClaude: context.loaded.settings.compat.claude,
  })
  if (context.json) {
    printJson(io, {
      projectRoot: context.projectRoot,
      repositoryRoot: instructions.repositoryRoot,
      files: instructions.files,
      rules: rules.rules,
      warnings: instructions.warnings,
      errors: rules.errors,
    })
    return rules.errors.length > 0 ? EXIT.failed : EXIT.ok
  }
  const lines: string[] = []
  for (const [index, file] of instructions.files.entries()) {
    lines.push(
      `${index + 1}. ${file.scope.padEnd(7)} ${file.path}${file.importedFrom ? `  (imported by ${file.importedFrom})` : ''}${file.truncated ? '  [truncated at 64 KiB]' : ''}`,
    )
    if (context.flags.content) lines.push(...file.content.split('\n').map((line) => `     ${line}`))
  }
  if (instructions.files.length === 0) lines.push('No instruction files (AGENTS.md, CLAUDE.md) found.')
  for (const rule of rules.rules)
    lines.push(
      `rule ${rule.path}  ${rule.alwaysApply ? 'always' : `globs: ${rule.globs.join(', ')}`}${rule.description ? `  — ${rule.description}` : ''}`,
    )
  for (const warning of instructions.warnings) lines.push(`warning: ${warning}`)
  for (const error of rules.errors) lines.push(`error: ${error}`)
  printLines(io, lines)
  return rules.errors.length > 0 ? EXIT.failed : EXIT.ok
}
