import explore from './explore.md'
import general from './general.md'
import plan from './plan.md'
import review from './review.md'
import verify from './verify.md'

/** A prompt file shipped with the package: its name and its full markdown (frontmatter included). */
export interface BuiltinPromptFile {
  name: string
  /** Where it lives inside the package, for messages and `list --json` output. */
  path: string
  markdown: string
}

/** The five built-in agent definitions, markdown with YAML frontmatter, in registry order. */
export const BUILTIN_AGENTS: readonly BuiltinPromptFile[] = [
  { name: 'general', path: 'prompts/agents/general.md', markdown: general },
  { name: 'explore', path: 'prompts/agents/explore.md', markdown: explore },
  { name: 'plan', path: 'prompts/agents/plan.md', markdown: plan },
  { name: 'review', path: 'prompts/agents/review.md', markdown: review },
  { name: 'verify', path: 'prompts/agents/verify.md', markdown: verify },
]
