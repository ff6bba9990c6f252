import type {
  Checkpoint,
  CheckRecord,
  ContentBlock,
  Cost,
  DecisionTrace,
  Message,
  PermissionMode,
  TodoItem,
  Usage,
} from '@z-engine/protocol'
import { ZERO_COST, ZERO_USAGE } from '@z-engine/protocol'

/** The turn running now, with its cancellation. */
export interface ActiveTurn {
  id: string
  controller: AbortController
  /** Why it was stopped, when it was (`hook`: a hook answered `continue: false`). */
  stopReason?: 'cancel' | 'interrupt' | 'close' | 'hook'
  done: Promise<void>
  /** Set just before `turnFinished` is published: from then on the session reports not busy. */
  finishing?: boolean
}

/** A session's mutable state, owned by the session actor. */
export class SessionState {
  mode: PermissionMode
  modelRef: string
  /** The user chose the model in this session (`/model`): the route seam leaves it alone. */
  modelPinned = false
  title: string | undefined
  /** What the model is sent next. */
  workingSet: Message[] = []
  usage: Usage = { ...ZERO_USAGE }
  cost: Cost = { ...ZERO_COST }
  todos: TodoItem[] = []
  checkpoints: Checkpoint[] = []
  /** Check records replayed from the journal (a resumed session's earlier evidence). */
  checks: CheckRecord[] = []
  /** Decision traces replayed from the journal (the latest), for `/decisions`. */
  decisionTraces: DecisionTrace[] = []
  /**
   * Settles when every checkpoint started so far is taken and journaled. A turn does not wait for
   * its own (issue 17: `turnFinished` never waits); rewinding and closing do.
   */
  checkpointing: Promise<void> = Promise.resolve()
  /** Steering typed while a turn runs, delivered with the next tool results or at the stop boundary. */
  steering: string[] = []
  /** Reminders waiting for the next user message (as `<system-reminder>` text). */
  reminders: string[] = []
  /** Rules granted with "Always allow… in this chat". */
  sessionRules: string[] = []
  activeTurn: ActiveTurn | undefined
  /** Last reported prompt size (input + cache tokens), for the context meter. */
  lastPromptTokens = 0

  constructor(init: { mode: PermissionMode; modelRef: string; title?: string }) {
    this.mode = init.mode
    this.modelRef = init.modelRef
    this.title = init.title
  }

  /** Drains queued steering and reminders as content for the next user message. */
  takeFollowUps(): ContentBlock[] {
    const blocks: ContentBlock[] = []
    for (const text of this.steering) blocks.push({ type: 'text', text })
    for (const text of this.reminders)
      blocks.push({ type: 'text', text: `<system-reminder>\n${text}\n</system-reminder>` })
    if (this.steering.length > 0) this.onSteeringTaken?.(this.activeTurn?.id)
    this.steering = []
    this.reminders = []
    return blocks
  }

  /** Told when queued steering is delivered into the running turn (turn handles follow it there). */
  onSteeringTaken?: (turnId: string | undefined) => void
}
