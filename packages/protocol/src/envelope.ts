import { EngineEventSchema } from './events.js'
import { type Infer, int, obj, str } from './schema/builder.js'

/** Schema of {@link EventEnvelope}. */
export const EventEnvelopeSchema = obj(
  {
    seq: int({ minimum: 0, description: 'Per-session sequence number, gap-free, starting at 0.' }),
    sessionId: str({ minLength: 1 }),
    at: str({ description: 'ISO 8601 time the event was published.' }),
    event: EngineEventSchema,
  },
  {
    turnId: str({ description: 'The turn the event belongs to, if any.' }),
    agentId: str({ description: 'The subagent that produced it; absent for the main agent.' }),
  },
)
/** How every event leaves a session: ordered, attributed, timestamped. */
export type EventEnvelope = Infer<typeof EventEnvelopeSchema>
