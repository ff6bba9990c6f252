import type { ContentBlock, ToolResultBlock } from '@z-engine/protocol'
import type { DecisionHub } from '../hub.js'
import { credentialCandidates } from './credential-candidates.js'

/** The user's answer about flagged values: withhold them, send them, or no answer (dismissed). */
export type CredentialAnswer = 'withhold' | 'send' | undefined

/** Puts flagged values to the user, on behalf of the tool call whose result holds the first. */
export type AskAboutCredentials = (
  values: readonly string[],
  toolUseId: string,
  signal: AbortSignal,
) => Promise<CredentialAnswer>

/**
 * Before a request (screen_request): new tool results are screened when they first enter a
 * request — before they join the working set — so an already-sent message is never rewritten and
 * each request still extends the previous one byte for byte. Likely credentials the on uses flag
 * are put to the user once (one question per batch); withheld values become `[WITHHELD:n]` in this
 * result and in every later one. A dismissed question withholds (fail closed); a value the user
 * decided on is never asked about again. One screen serves a whole session ({@link sessionRequestScreen}):
 * the main agent's turns and every subagent, so a value withheld in a subagent's results is withheld
 * from the main agent too (its report, the Agent result, is screened like any result) and the user is
 * asked about each value once.
 */
export class RequestScreen {
  readonly #withheld = new Map<string, string>()
  readonly #decided = new Set<string>()

  constructor(private readonly hub: DecisionHub | undefined) {}

  /** Values withheld so far (for tests and `/decisions`). */
  get withheldCount(): number {
    return this.#withheld.size
  }

  /** The tool results as they may be sent: withheld values replaced, newly flagged ones asked about. */
  async screen(
    content: ContentBlock[],
    toolNames: ReadonlyMap<string, string>,
    ask: AskAboutCredentials,
    signal: AbortSignal,
  ): Promise<ContentBlock[]> {
    let screened = this.#replace(content)
    if (!this.hub?.joins('beforeRequest') || signal.aborted) return screened
    const results = screened.flatMap((block) =>
      block.type === 'tool_result' ? [{ block, toolName: toolNames.get(block.toolUseId) ?? 'tool' }] : [],
    )
    const candidates = credentialCandidates(results, this.#decided)
    if (candidates.length === 0) return screened
    const advice = await this.hub.consult('beforeRequest', { candidates }, signal)
    const flagged = [...new Set(advice.flatMap((one) => one.flagged))].filter(
      (value) => !this.#decided.has(value),
    )
    if (flagged.length === 0 || signal.aborted) return screened
    const first = candidates.find((candidate) => flagged.includes(candidate.value))!
    const answer = await ask(flagged, first.toolUseId, signal)
    for (const value of flagged) {
      this.#decided.add(value)
      if (answer !== 'send') this.#withheld.set(value, `[WITHHELD:${this.#withheld.size + 1}]`)
    }
    screened = this.#replace(screened)
    return screened
  }

  #replace(content: ContentBlock[]): ContentBlock[] {
    if (this.#withheld.size === 0) return content
    const swap = (text: string) => {
      let out = text
      for (const [value, placeholder] of this.#withheld)
        if (out.includes(value)) out = out.split(value).join(placeholder)
      return out
    }
    return content.map((block): ContentBlock => {
      if (block.type !== 'tool_result') return block
      const parts = block.content.map((part) =>
        part.type === 'text' ? { ...part, text: swap(part.text) } : part,
      )
      return { ...block, content: parts } satisfies ToolResultBlock
    })
  }
}

const screens = new WeakMap<DecisionHub, RequestScreen>()

/** The session's one request screen (per decision hub; without a hub nothing is ever withheld). */
export function sessionRequestScreen(hub: DecisionHub | undefined): RequestScreen {
  if (hub === undefined) return new RequestScreen(undefined)
  let screen = screens.get(hub)
  if (!screen) {
    screen = new RequestScreen(hub)
    screens.set(hub, screen)
  }
  return screen
}
