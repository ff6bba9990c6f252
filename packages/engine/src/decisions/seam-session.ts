import type { LiveEvent } from '@z-engine/protocol'
import type { DecisionHub } from './hub.js'

/**
 * What a background seam needs of its session: the decision hub, fresh ids, and a way to publish
 * what it found. The session core satisfies it; the seams stay below the session layer.
 */
export interface SeamSession {
  readonly services: { readonly decisions?: DecisionHub }
  readonly newId: (prefix: string) => string
  publish(event: LiveEvent): void
}
