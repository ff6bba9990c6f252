import type { BuiltinPromptFile } from '../agents/index.js'
import commit from './commit.md'
import init from './init.md'
import review from './review.md'

/** Built-in prompt commands (`/init`, `/review`, `/commit`): markdown templates with frontmatter. */
export const BUILTIN_COMMANDS: readonly BuiltinPromptFile[] = [
  { name: 'init', path: 'prompts/commands/init.md', markdown: init },
  { name: 'review', path: 'prompts/commands/review.md', markdown: review },
  { name: 'commit', path: 'prompts/commands/commit.md', markdown: commit },
]
