import { estimateTextTokens } from '../tokens.js'
import { DEFAULT_OUTPUT_BUDGETS, type OutputCategory } from './categories.js'
import { planConclusion } from './conclusion.js'
import { looksLikeDiff, planDiff } from './diff.js'
import { cutByCharacters, planFallback } from './fallback.js'
import { planFile } from './file.js'
import { planLog } from './log.js'
import { planSearch } from './search.js'
import { looksLikeTestOutput, planTestOutput } from './test-output.js'

/** A result after its semantic output budget. */
export interface BudgetedOutput {
  text: string
  /** Whether anything was left out. */
  shortened: boolean
  /** The category whose policy shaped it (a log that is test output or a diff is shaped as one). */
  category: OutputCategory
  /** Estimated tokens before and after. */
  tokensBefore: number
  tokensAfter: number
}

/**
 * Fits a tool result into its category's estimated-token budget (spec 004 "Tools and
 * Capabilities"), keeping the structure the model needs rather than a plain head and tail. Text
 * already within the budget is returned unchanged. Deterministic and provider-neutral.
 */
export function planOutputBudget(
  text: string,
  category: OutputCategory,
  budget: number = DEFAULT_OUTPUT_BUDGETS[category],
): BudgetedOutput {
  const tokensBefore = estimateTextTokens(text)
  if (tokensBefore <= budget)
    return { text, shortened: false, category, tokensBefore, tokensAfter: tokensBefore }
  const lines = text.split('\n')
  const effective = refine(category, lines)
  let shaped = shape(effective, lines, budget)
  // No whole line fitted (one giant line): cut it by characters.
  if (estimateTextTokens(shaped) > budget || !/[^\s]/.test(shaped.replace(/\[\.\.\. .* \.\.\.\]/g, '')))
    shaped = cutByCharacters(text, budget)
  return {
    text: shaped,
    shortened: true,
    category: effective,
    tokensBefore,
    tokensAfter: estimateTextTokens(shaped),
  }
}

/** Command output is shaped as test output or a diff when it is one. */
function refine(category: OutputCategory, lines: readonly string[]): OutputCategory {
  if (category !== 'log') return category
  if (looksLikeDiff(lines)) return 'diff'
  if (looksLikeTestOutput(lines)) return 'test'
  return category
}

function shape(category: OutputCategory, lines: readonly string[], budget: number): string {
  switch (category) {
    case 'file':
      return planFile(lines, budget)
    case 'search':
      return planSearch(lines, budget)
    case 'test':
      return planTestOutput(lines, budget)
    case 'log':
      return planLog(lines, budget)
    case 'diff':
      return planDiff(lines, budget)
    case 'conclusion':
      return planConclusion(lines, budget)
    case 'text':
      return planFallback(lines, budget)
    default: {
      const never: never = category
      return never
    }
  }
}
