import type { DecisionSeam, Message, TurnTone } from '@z-engine/protocol'

/** A tool result the clear plan may turn into a marker (context pressure). */
export interface ClearCandidate {
  toolUseId: string
  toolName: string
  /** Estimated tokens the result costs now. */
  tokens: number
  /** The first characters of the result, for the use to judge it by. */
  excerpt: string
}

/** A value in a new tool result that looks like a credential (before a request). */
export interface CredentialCandidate {
  toolUseId: string
  toolName: string
  value: string
  /** Why it was picked: the secret kind or the assignment it sits in. */
  kind: string
  /** The line around it, with the value itself masked. */
  context: string
}

/**
 * What each seam gives its uses and what a use may advise there (spec 000 "Decision seams", the
 * "On advice" column). Advice can only escalate: nothing here can allow, deny, cancel or set a badge.
 */
export interface SeamTypes {
  turnStart: {
    input: { prompt: string; history: readonly Message[] }
    /**
     * `reminders`: text for the opening message. `taskView`: the earlier exchanges (by the id of
     * their opening message) the new task needs; every other candidate is left out of the working set.
     */
    advice: { kind: 'reminders'; reminders: string[] } | { kind: 'taskView'; keep: string[] }
  }
  contextPressure: {
    input: { planned: readonly ClearCandidate[]; others: readonly ClearCandidate[] }
    /** `keep`: planned clears to drop; `add`: other results to clear too. Keeping wins. */
    advice: { keep: string[]; add: string[] }
  }
  beforeRequest: {
    input: { candidates: readonly CredentialCandidate[] }
    /** Candidate values that are likely credentials: the user is asked once before they are sent. */
    advice: { flagged: string[] }
  }
  toolGate: {
    input: { toolName: string; title: string; input: Record<string, unknown>; agentId: string }
    /** Turns this Allow into an Ask; the reason is shown on the approval card. */
    advice: { ask: true; reason: string }
  }
  afterCall: {
    input: { toolName: string; input: Record<string, unknown>; resultText: string; isError: boolean }
    advice: { notes: string[] }
  }
  stopBoundary: {
    input: { finalText: string; mutated: boolean; prompt: string }
    advice: { reminder: string }
  }
  askUser: {
    input: { questions: readonly string[]; userMessages: readonly string[] }
    /** Answers taken from what the user already said; `quote` must occur in one of their messages. */
    advice: { answers: string[]; quote: string }
  }
  route: {
    input: {
      /** The turn's prompt, or the prompt a subagent is launched with. */
      prompt: string
      /** The launched subagent (absent for a main turn). */
      agent?: { id: string; type: string; description: string }
      /** The model the turn or agent runs on unless routed. */
      model: string
      /** Models it may be raised to (stronger, configured, reachable); empty: the model stays. */
      stronger: readonly string[]
      /** The configured effort; undefined when the model does not reason (effort cannot change). */
      effort: 'low' | 'medium' | 'high' | 'max' | undefined
    }
    /** A higher effort, a stronger model, or both; anything else is ignored by the seam. */
    advice: { effort?: 'low' | 'medium' | 'high' | 'max'; model?: string; reason: string }
  }
  completion: {
    input: { finalText: string; messageId: string; mutated: boolean; verified: boolean }
    /** A claim of completion, quoted from the final answer. */
    advice: { claim: string }
  }
  checkSelect: {
    input: { checks: readonly { id: string; command: string }[]; changedFiles: readonly string[] }
    advice: { skip: string[] }
  }
  relevance: {
    input: { toolName: string; input: Record<string, unknown>; resultText: string }
    /** 1-based inclusive line ranges of the result that matter, each with why. */
    advice: { ranges: { from: number; to: number; why: string }[] }
  }
  turnEnd: {
    input: { turnId: string; prompt: string; finalText: string }
    advice: { tone?: TurnTone; suggestion?: string }
  }
  attention: {
    input: { itemId: string; kind: 'approval' | 'question' | 'plan'; title: string }
    advice: { score: number; reason: string }
  }
}

/** A seam's input. */
export type SeamInput<S extends DecisionSeam> = SeamTypes[S]['input']
/** A seam's advice. */
export type SeamAdvice<S extends DecisionSeam> = SeamTypes[S]['advice']
