import type { Message, Usage } from '@z-engine/protocol'
import { estimateMessagesTokens } from './tokens.js'

/** How full the context is, and how the number was reached. */
export interface MeterReading {
  /** Tokens the next request is expected to use. */
  tokens: number
  /** `reported`: the provider's last prompt size plus estimates since; `estimated`: all estimated. */
  source: 'reported' | 'estimated'
  /** The part the provider reported (0 when `source` is `estimated`). */
  reportedTokens: number
  /** The part estimated locally. */
  estimatedTokens: number
}

/** What the meter measures: the request about to be sent, split the way the request is built. */
export interface MeterInput {
  messages: readonly Message[]
  /** Estimated tokens of the system sections. */
  systemTokens: number
  /** Estimated tokens of the tool specs. */
  toolTokens: number
}

/** The prompt size a provider reported: uncached input plus cache reads and writes. */
export function promptTokensOf(usage: Usage): number {
  return usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens
}

/**
 * The context meter: the provider's reported prompt size for the last request plus local estimates
 * for the messages added since. With no report (a new or just-compacted conversation, or after old
 * tool results were cleared in place) it estimates everything. Holds only numbers; no I/O.
 */
export class ContextMeter {
  private report: { promptTokens: number; messageCount: number; firstId: string | undefined } | undefined

  /**
   * Records the usage of a request that sent `messages`; the next reading adds estimates only for
   * messages after these.
   */
  recordUsage(usage: Usage, messages: readonly Message[]): void {
    this.report = {
      promptTokens: promptTokensOf(usage),
      messageCount: messages.length,
      firstId: messages[0]?.id,
    }
  }

  /** Forgets the last report; call after a compaction or after clearing tool results in place. */
  reset(): void {
    this.report = undefined
  }

  /** Measures the request about to be sent. */
  measure(input: MeterInput): MeterReading {
    const report = this.report
    // The report applies only while the working set still starts with what that request sent.
    if (report && report.messageCount <= input.messages.length && input.messages[0]?.id === report.firstId) {
      const estimatedTokens = estimateMessagesTokens(input.messages.slice(report.messageCount))
      return {
        tokens: report.promptTokens + estimatedTokens,
        source: 'reported',
        reportedTokens: report.promptTokens,
        estimatedTokens,
      }
    }
    const estimatedTokens = input.systemTokens + input.toolTokens + estimateMessagesTokens(input.messages)
    return { tokens: estimatedTokens, source: 'estimated', reportedTokens: 0, estimatedTokens }
  }
}
