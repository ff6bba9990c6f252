import type { Command, EventEnvelope } from '@z-engine/protocol'

/** What the model reads when an approval is denied because nobody can answer it. */
export const HEADLESS_DENIAL =
  'Denied: z-engine exec runs headless, so there is no one to ask for approval. Do without this call, or ask the user to rerun with --permission-mode acceptEdits|bypass or an allow rule in .z-engine/settings.toml.'

/**
 * The answer a headless run gives to an event that waits on a person, failing closed: approvals are
 * denied with a reason the model sees, questions are dismissed, plans are kept in plan mode. The
 * engine already allowed whatever the mode or a rule allows, so only real asks arrive here.
 */
export function headlessAnswer(envelope: EventEnvelope): Command | undefined {
  const event = envelope.event
  switch (event.type) {
    case 'approvalRequested':
      return {
        type: 'resolveApproval',
        approvalId: event.request.id,
        decision: { type: 'deny', feedback: HEADLESS_DENIAL },
      }
    case 'questionAsked':
      return { type: 'answerQuestion', questionId: event.question.id, response: { type: 'dismissed' } }
    case 'planProposed':
      return {
        type: 'resolvePlan',
        planId: event.plan.id,
        decision: {
          type: 'reject',
          feedback:
            'Headless run: no one can review this plan. Finish with the plan as your answer; the user can rerun with --permission-mode acceptEdits to carry it out.',
        },
      }
    default:
      return undefined
  }
}
