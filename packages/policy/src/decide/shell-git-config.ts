import type { LineFacts } from '../shell/analyze.js'
import { repositoryGitProgram } from '../shell/git-config.js'
import type { PolicyContext } from './context.js'

/**
 * A line's facts with each proven git command unproven when the repository's own configuration
 * lets it choose a program the engine's fixed overrides cannot switch off (issue 34: a repository
 * that names a textconv or filter driver would run it on `git diff` or `git status`), or when the
 * configuration cannot be read. Without the engine's git facts the proof stands as the table says.
 */
export function withGitConfig(facts: LineFacts, cwd: string, context: PolicyContext): LineFacts {
  const read = context.pathFacts?.gitConfig
  if (read === undefined) return facts
  let problem: string | null | undefined = null
  const commands = facts.commands.map((command) => {
    if (!command.readOnly || command.words[0]?.value !== 'git') return command
    if (problem === null) {
      const entries = read.call(context.pathFacts, cwd)
      problem =
        entries === undefined
          ? "git's configuration for this folder cannot be read"
          : repositoryGitProgram(entries)
    }
    return problem === undefined ? command : { ...command, readOnly: false, reason: problem }
  })
  return { ...facts, commands }
}
