import { Box, Static, Text, useStdout } from 'ink'
import { type ReactNode, useEffect, useReducer, useRef, useState } from 'react'
import { ApprovalPanel } from './approval-panel.js'
import type { ChatController } from './chat-controller.js'
import {
  completionRows,
  focusedApproval,
  initialInputUi,
  pendingApprovals,
  syncOwners,
} from './chat-input-ui.js'
import { chatKey, ctrlCWarning } from './chat-keys.js'
import { chatReducer } from './chat-reducer.js'
import type { ChatScreen } from './chat-screen.js'
import { Composer } from './composer.js'
import type { EarlyInput } from './early-keys.js'
import { AgentLine, EntryView, ToolCardView } from './entry-view.js'
import type { HistoryEntry } from './input-history.js'
import { liveTail } from './live-tail.js'
import { OverlayView } from './overlay-view.js'
import { PlanPanel } from './plan-panel.js'
import { QuestionPanel } from './question-panel.js'
import { StatusLine } from './status-line.js'
import { TrustPanel } from './trust-panel.js'
import { useChatPrompts, useReplayTyped, useReprintOnResize } from './use-chat-effects.js'
import { useTerminalInput } from './use-terminal-input.js'
import type { ChatState } from './view-model.js'

/**
 * The chat app as an element for Ink's `render`. (React is CommonJS: its names reach a dynamic
 * `import('react')` under Node but not in the bundled CLI, so the element is made here.)
 */
export function chatAppElement(props: ChatAppProps): ReactNode {
  return <ChatApp {...props} />
}

/** What the chat screen is given: the controller and where it starts. */
export interface ChatAppProps {
  controller: ChatController
  initial: ChatState
  /** Called once when the user quits (`/exit`, Ctrl-C twice). */
  onExit: () => void
  /** Whether Shift-Tab may cycle into bypass (only when the chat was started in it). */
  allowBypass?: boolean
  /** The project's earlier prompts, oldest first, for ↑/↓. */
  history?: readonly HistoryEntry[]
  /** The clock, injectable so the Ctrl-C window is testable. */
  now?: () => number
  /** What was typed in the early prompt box before the chat was ready (see early-composer.ts). */
  typed?: Omit<EarlyInput, 'quit'>
}

/** The rows still changing: streaming text (its tail, so it fits the screen), running tools, subagents. */
function LiveRows({ state }: { state: ChatState }): ReactNode {
  const { stdout } = useStdout()
  const liveParts = [...state.live.parts.values()]
  const liveTools = [...state.live.tools.values()]
  // Rows left for streaming text once the composer, status line and running tool cards are drawn.
  const textRows = Math.max(3, (stdout.rows ?? 40) - 8 - 6 * liveTools.length - state.live.agents.size)
  const textColumns = (stdout.columns ?? 100) - 4
  return (
    <Box flexDirection="column" paddingX={1}>
      {liveParts.map((part) => {
        const tail = part.kind === 'assistant' ? liveTail(part.text, textRows, textColumns) : part.text
        return (
          <Box key={part.key} flexDirection="column">
            {tail !== part.text ? <Text dimColor>…</Text> : null}
            <EntryView entry={{ ...part, text: tail }} />
          </Box>
        )
      })}
      {liveTools.map((card) => (
        <ToolCardView key={card.toolUseId} card={card} />
      ))}
      {[...state.live.agents.values()].map((agent) => (
        <AgentLine key={agent.id} agent={agent} />
      ))}
    </Box>
  )
}

/** Whatever has the keyboard: the trust prompt, a picker, a waiting plan, question or approval, or the composer. */
function FocusedPanel({ screen, state }: { screen: ChatScreen; state: ChatState }): ReactNode {
  const { stdout } = useStdout()
  const { ui } = screen
  const approvals = pendingApprovals(state, ui)
  const question = state.questions[0]
  const plan = state.plans[0]
  syncOwners(ui, plan?.id, question?.id, focusedApproval(approvals, ui)?.id)
  if (ui.trust.open) return <TrustPanel summary={ui.trust.summary} />
  if (ui.overlay !== undefined)
    return <OverlayView overlay={ui.overlay} state={state} rows={stdout.rows ?? 24} />
  if (plan) return <PlanPanel plan={plan} ui={ui.plan} />
  if (question) return <QuestionPanel request={question} ui={ui.question} />
  if (approvals.length > 0)
    return <ApprovalPanel requests={approvals} ui={ui.approval} projectRoot={state.projectRoot} />
  const rows = completionRows(ui, screen.controller.commands)
  return (
    <Composer
      value={ui.prompt}
      matches={rows}
      selected={Math.min(ui.completion, Math.max(0, rows.length - 1))}
      busy={state.busy}
    />
  )
}

/**
 * The interactive chat: finished rows in `<Static>` (printed once, so long transcripts never
 * flicker), then the live rows, the prompt that waits (plan, question, approval) or the composer,
 * and the status line. One input handler (chat-keys.ts) routes every key to whichever of those has
 * the focus; the keyboard state lives in a ref (chat-input-ui.ts) so keys between renders never race.
 */
export function ChatApp({
  controller,
  initial,
  onExit,
  allowBypass = false,
  history = [],
  now = Date.now,
  typed,
}: ChatAppProps): ReactNode {
  const [state, dispatch] = useReducer(chatReducer, initial)
  const { stdout } = useStdout()
  const [, rerender] = useState(0)
  const [staticKey, setStaticKey] = useState(0)
  const stateRef = useRef(state)
  stateRef.current = state
  // One keyboard state for the chat's life, changed in place (never a new object: handlers hold it).
  const [ui] = useState(() => initialInputUi(history, typed))
  const screen: ChatScreen = {
    controller,
    ui,
    chat: () => stateRef.current,
    dispatch,
    refresh: () => rerender((tick) => tick + 1),
    reprint: () => setStaticKey((key) => key + 1),
    now,
    onExit,
    allowBypass,
  }

  useEffect(() => controller.subscribe((envelope) => dispatch({ type: 'event', envelope })), [controller])
  useEffect(() => controller.onCommandsChanged(() => rerender((count) => count + 1)), [controller])
  useReprintOnResize(screen.reprint)
  useChatPrompts(screen)
  useTerminalInput((event) => chatKey(screen, event))
  useReplayTyped(typed)

  const warning = ctrlCWarning(screen)
  return (
    <Box flexDirection="column">
      <Static key={`static-${staticKey}`} items={state.finished}>
        {(entry) => (
          // Static rows are laid out apart from the screen, unbounded: without the terminal's width a
          // bordered row would be as wide as the terminal plus its padding, and wrap.
          <Box key={entry.key} paddingX={1} width={stdout.columns ?? 100}>
            <EntryView entry={entry} />
          </Box>
        )}
      </Static>
      <LiveRows state={state} />
      <FocusedPanel screen={screen} state={state} />
      <Box paddingX={1}>
        <StatusLine
          state={state}
          contextWindow={controller.contextWindowOf(state.model)}
          {...(warning !== undefined ? { warning } : {})}
        />
      </Box>
    </Box>
  )
}
