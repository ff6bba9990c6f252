import type { SuggestedRule } from '@z-engine/protocol'
import type { Rule } from '../rules/parse-rule.js'
import type { Decision } from './context.js'

/** Collects a decision's steps (only when explaining, so the fast path builds no strings). */
export class Trace {
  readonly steps: string[] | undefined

  constructor(explain: boolean) {
    this.steps = explain ? [] : undefined
  }

  step(text: string | (() => string)): void {
    this.steps?.push(typeof text === 'string' ? text : text())
  }

  done(decision: Decision['decision'], reason: string, rule?: Rule, suggestion?: SuggestedRule): Decision {
    const result: Decision = { decision, reason }
    if (rule) result.rule = `${rule.text} (${rule.source})`
    if (suggestion) result.suggestion = suggestion
    if (this.steps) {
      this.steps.push(`→ ${decision}: ${reason}`)
      result.steps = this.steps
    }
    return result
  }
}
