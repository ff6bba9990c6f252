import type { Key } from 'ink'
import { approvalKey, previewText } from './approval-panel.js'
import { focusedApproval, pendingApprovals, syncOwners } from './chat-input-ui.js'
import { type ChatScreen, notice } from './chat-screen.js'
import { trustPanelKey } from './chat-trust.js'
import { composerKey } from './composer-keys.js'
import { overlayKey } from './overlay-keys.js'
import { INITIAL_PLAN_UI, planKey } from './plan-panel.js'
import { EMPTY_BUFFER } from './prompt-buffer.js'
import type { PromptInput } from './prompt-keys.js'
import { INITIAL_QUESTION_UI, questionKey } from './question-panel.js'
import { nextMode } from './status-line.js'
import { NO_KEY } from './use-terminal-input.js'

/** How long the "press Ctrl-C again" warning waits for the second press. */
export const CTRL_C_WINDOW_MS = 2000

/**
 * Ctrl-C interrupts a running turn (queued messages stay), clears a written prompt, and on an
 * empty idle prompt arms quitting: a second press within the window quits.
 */
function ctrlC(screen: ChatScreen): void {
  const { ui } = screen
  if (screen.chat().busy) {
    ui.ctrlCAt = undefined
    screen.controller.send({ type: 'interrupt' })
    screen.refresh()
    return
  }
  if (ui.prompt.text !== '') {
    ui.ctrlCAt = undefined
    ui.prompt = EMPTY_BUFFER
    ui.completion = 0
    screen.refresh()
    return
  }
  if (ui.ctrlCAt !== undefined && screen.now() - ui.ctrlCAt < CTRL_C_WINDOW_MS) {
    screen.onExit()
    return
  }
  ui.ctrlCAt = screen.now()
  screen.refresh()
  // Drawn again once the window closed, so the warning goes away.
  setTimeout(screen.refresh, CTRL_C_WINDOW_MS + 10).unref?.()
}

/** The "Press Ctrl-C again" warning while the quit window is open. */
export function ctrlCWarning(screen: ChatScreen): string | undefined {
  const at = screen.ui.ctrlCAt
  return at !== undefined && screen.now() - at < CTRL_C_WINDOW_MS ? 'Press Ctrl-C again to quit' : undefined
}

/** Ctrl-O: prints the whole output of the newest call not expanded yet (finished rows cannot be redrawn). */
function expandOutput(screen: ChatScreen): void {
  const { ui, dispatch } = screen
  const chat = screen.chat()
  // With an approval card open, its whole change.
  const card = focusedApproval(pendingApprovals(chat, ui), ui)
  if (card?.preview !== undefined) {
    const whole = previewText(card.preview, chat.projectRoot)
    dispatch({
      type: 'local',
      entry: { kind: 'toolOutput', ...whole, ...(card.preview.type === 'diff' ? { diff: true } : {}) },
    })
    return
  }
  const shown = ui.expanded
  const output = chat.outputs.findLast((candidate) => !shown.has(candidate.toolUseId))
  if (!output) {
    notice(screen, 'info', 'No tool output to expand.')
    return
  }
  shown.add(output.toolUseId)
  dispatch({
    type: 'local',
    entry: {
      kind: 'toolOutput',
      title: output.title,
      text: output.text,
      ...(output.diff ? { diff: true } : {}),
    },
  })
}

/** Keys for whatever waits on the user (a plan, a question, approvals, in that order), else the composer. */
function promptKeyOf(screen: ChatScreen, event: PromptInput, input: string, key: Key): void {
  const { ui, controller } = screen
  const chat = screen.chat()
  const approvals = pendingApprovals(chat, ui)
  const plan = chat.plans[0]
  const question = chat.questions[0]
  syncOwners(ui, plan?.id, question?.id, focusedApproval(approvals, ui)?.id)
  if (plan) {
    const result = planKey(plan, ui.plan, input, key)
    if (result.type === 'resolve') {
      ui.plan = INITIAL_PLAN_UI
      controller.send({ type: 'resolvePlan', planId: result.planId, decision: result.decision })
    } else if (result.type === 'ui') ui.plan = result.ui
    else if (key.escape) controller.send({ type: 'interrupt' })
  } else if (question) {
    const result = questionKey(question, ui.question, input, key)
    if (result.type === 'answer') {
      ui.question = INITIAL_QUESTION_UI
      controller.send({ type: 'answerQuestion', questionId: result.questionId, response: result.response })
    } else ui.question = result.ui
  } else if (approvals.length > 0) {
    const result = approvalKey(approvals, ui.approval, input, key)
    if (result.type === 'resolve') {
      ui.answered.add(result.approvalId)
      ui.approval = result.ui
      controller.send({ type: 'resolveApproval', approvalId: result.approvalId, decision: result.decision })
    } else if (result.type === 'ui') ui.approval = result.ui
    else if (key.escape) controller.send({ type: 'interrupt' })
  } else composerKey(screen, event)
}

/**
 * The chat's one input handler: Ctrl-C, Ctrl-O and Shift-Tab anywhere, then whichever has the focus
 * (a picker, the trust prompt, a waiting request, the composer).
 */
export function chatKey(screen: ChatScreen, event: PromptInput): void {
  const { ui } = screen
  // Panels take keys; a paste reaches them as typed text on one line.
  const { input, key } =
    event.type === 'key'
      ? event
      : { input: event.type === 'paste' ? event.text.replace(/\s*[\r\n]+\s*/g, ' ') : '', key: NO_KEY }
  if (key.ctrl && input === 'c') {
    ctrlC(screen)
    return
  }
  ui.ctrlCAt = undefined
  if (key.ctrl && input === 'o') {
    expandOutput(screen)
    return
  }
  if (key.tab && key.shift) {
    screen.controller.send({ type: 'setMode', mode: nextMode(screen.chat().mode, screen.allowBypass) })
    return
  }
  if (ui.overlay !== undefined && !ui.trust.open) overlayKey(screen, ui.overlay, input, key)
  else if (ui.trust.open) trustPanelKey(screen, input, key)
  else promptKeyOf(screen, event, input, key)
  screen.refresh()
}
