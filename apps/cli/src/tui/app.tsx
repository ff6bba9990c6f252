import type { McpResourceEntry } from '@z-engine/engine/internal'
import { Box, type Key, Static, Text, useStdin, useStdout } from 'ink'
import { type ReactNode, useEffect, useReducer, useRef, useState } from 'react'
import type { SessionRow } from '../sessions/session-listing.js'
import {
  ApprovalPanel,
  type ApprovalUi,
  approvalKey,
  INITIAL_APPROVAL_UI,
  previewText,
} from './approval-panel.js'
import type { ChatController } from './chat-controller.js'
import { chatReducer } from './chat-reducer.js'
import { type CompletionRow, Composer } from './composer.js'
import type { EarlyInput } from './early-keys.js'
import { AgentLine, EntryView, ToolCardView } from './entry-view.js'
import { listProjectFiles, matchFiles } from './file-index.js'
import { attachMentionedFiles } from './file-mentions.js'
import { helpMarkdown } from './help-text.js'
import {
  EMPTY_HISTORY,
  entryOf,
  type HistoryEntry,
  historyOf,
  type InputHistory,
  recall,
  remember,
} from './input-history.js'
import { liveTail } from './live-tail.js'
import { resourceRows } from './mcp-completions.js'
import { type PickerRow, PickerView, pickerKey } from './picker.js'
import { INITIAL_PLAN_UI, PlanPanel, type PlanUi, planKey } from './plan-panel.js'
import {
  bufferOf,
  EMPTY_BUFFER,
  expandPastes,
  type PromptBuffer,
  replaceToken,
  tokenAtCursor,
} from './prompt-buffer.js'
import { type PromptInput, promptKey } from './prompt-keys.js'
import { INITIAL_QUESTION_UI, QuestionPanel, type QuestionUi, questionKey } from './question-panel.js'
import { firstScope, messageRows, type RewindStep, SCOPE_CHOICES, scopeRows } from './rewind-picker.js'
import { sessionPickerRows } from './session-picker.js'
import { completions, parseLine, type SlashCommand } from './slash-commands.js'
import { nextMode, StatusLine } from './status-line.js'
import { TrustPanel, type TrustSummary, trustKey } from './trust-panel.js'
import { NO_KEY, useTerminalInput } from './use-terminal-input.js'
import type { ChatState, RewindConflictChoice } from './view-model.js'

/** Erase the screen, erase the scrollback, cursor home. */
export const CLEAR_SCREEN_AND_SCROLLBACK = '\u001b[2J\u001b[3J\u001b[H'

/** How long the "press Ctrl-C again" warning waits for the second press. */
export const CTRL_C_WINDOW_MS = 2000

/** How soon a second Esc on an empty prompt must follow the first to open the rewind picker. */
export const ESC_ESC_WINDOW_MS = 1000

/** A picker shown in place of the composer: `/rewind` (two steps) or `/resume`. */
type Overlay =
  | ({ kind: 'rewind' } & RewindStep)
  | { kind: 'resume'; rows: SessionRow[] | 'loading'; index: number }
  /** After a code rewind left overlapping hunks: keep each such file, or revert it whole. */
  | { kind: 'conflict'; queue: RewindConflictChoice[]; index: number }

/** The keyboard state of the screen, kept in a ref so keys arriving between renders never race. */
interface InputUi {
  prompt: PromptBuffer
  /** The project's files for `@` completion, listed the first time `@` is typed. */
  files: string[] | 'loading' | undefined
  /** The MCP servers' resources for `@server:uri` completion, listed with the files (again while none). */
  resources: McpResourceEntry[] | 'loading' | undefined
  history: InputHistory
  completion: number
  approval: ApprovalUi
  question: QuestionUi
  plan: PlanUi
  /** The trust prompt: open (with its summary once read), or closed. */
  trust: { open: boolean; summary?: TrustSummary; asked?: boolean }
  /** Cards answered here whose `approvalResolved` has not arrived yet. */
  answered: Set<string>
  /** The request each prompt's state belongs to: a new request starts its prompt afresh. */
  owners: { plan?: string; question?: string; approval?: string }
  ctrlCAt: number | undefined
  /** When Esc was last pressed on an empty idle prompt (a second press opens `/rewind`). */
  escAt: number | undefined
  overlay: Overlay | undefined
  /** The calls whose whole output Ctrl-O already printed. */
  expanded: Set<string>
}

/**
 * Starts a prompt's keyboard state afresh when the request it belonged to is gone (answered
 * elsewhere, or cancelled with its turn), so half-typed feedback never lands on another request.
 */
function syncOwners(
  ui: InputUi,
  plan: string | undefined,
  question: string | undefined,
  approval: string | undefined,
) {
  if (ui.owners.plan !== plan) ui.plan = INITIAL_PLAN_UI
  if (ui.owners.question !== question) ui.question = INITIAL_QUESTION_UI
  if (ui.owners.approval !== approval) ui.approval = { focus: ui.approval.focus, option: 0 }
  ui.owners = {
    ...(plan !== undefined ? { plan } : {}),
    ...(question !== undefined ? { question } : {}),
    ...(approval !== undefined ? { approval } : {}),
  }
}

/** How many `@` file completions are offered. */
const FILE_ROWS = 50

/** The completion list for the prompt: `/` commands while a command name is typed, `@` files. */
function completionRows(ui: InputUi, commands: readonly SlashCommand[]): CompletionRow[] {
  const file = tokenAtCursor(ui.prompt)
  if (file !== undefined) {
    const query = file.token.slice(1)
    const files = Array.isArray(ui.files)
      ? matchFiles(ui.files, query, FILE_ROWS).map((path) => ({ key: path, label: `@${path}` }))
      : []
    const resources = Array.isArray(ui.resources) ? resourceRows(ui.resources, query, FILE_ROWS) : []
    // `@server:` names a resource: those first once a colon is typed.
    return query.includes(':') ? [...resources, ...files] : [...files, ...resources]
  }
  return completions(ui.prompt.text, commands).map((command) => ({
    key: command.name,
    label: `/${command.name}`,
    ...(command.argumentHint !== undefined ? { hint: command.argumentHint } : {}),
    description: command.description,
  }))
}

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

/**
 * The interactive chat: finished rows in `<Static>` (printed once, so long transcripts never
 * flicker), then the live rows, the prompt that waits (plan, question, approval) or the composer,
 * and the status line. One input handler routes every key to whichever of those has the focus.
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
  const ui = useRef<InputUi>({
    prompt: typed !== undefined && typed.prefix !== '' ? bufferOf(typed.prefix) : EMPTY_BUFFER,
    files: undefined,
    resources: undefined,
    history: history.length > 0 ? historyOf(history) : EMPTY_HISTORY,
    completion: 0,
    approval: INITIAL_APPROVAL_UI,
    question: INITIAL_QUESTION_UI,
    plan: INITIAL_PLAN_UI,
    trust: { open: false },
    answered: new Set(),
    owners: {},
    ctrlCAt: typed?.ctrlCAt,
    escAt: undefined,
    overlay: undefined,
    expanded: new Set(),
  })

  useEffect(() => controller.subscribe((envelope) => dispatch({ type: 'event', envelope })), [controller])
  useEffect(() => controller.onCommandsChanged(() => rerender((count) => count + 1)), [controller])

  // A width change makes the terminal reflow the frames already drawn (the prompt box, status line)
  // at the old width, which Ink cannot erase: they stay in scrollback. So the screen and scrollback
  // are cleared and the transcript printed again at the new width, as Claude Code does.
  useEffect(() => {
    let width = stdout.columns
    const onResize = (): void => {
      if (stdout.columns === width) return
      width = stdout.columns
      stdout.write(CLEAR_SCREEN_AND_SCROLLBACK)
      setStaticKey((key) => key + 1)
    }
    stdout.on('resize', onResize)
    return () => {
      stdout.off('resize', onResize)
    }
  }, [stdout])

  const approvals = state.approvals.filter((request) => !ui.current.answered.has(request.id))
  const question = state.questions[0]
  const plan = state.plans[0]
  syncOwners(
    ui.current,
    plan?.id,
    question?.id,
    approvals[Math.min(ui.current.approval.focus, approvals.length - 1)]?.id,
  )
  const rows = completionRows(ui.current, controller.commands)
  const warning =
    ui.current.ctrlCAt !== undefined && now() - ui.current.ctrlCAt < CTRL_C_WINDOW_MS
      ? 'Press Ctrl-C again to quit'
      : undefined

  /**
   * Opens the trust prompt with what trust would turn on; from `/trust` an already trusted folder
   * only gets a line saying so.
   */
  const openTrust = (fromCommand: boolean): void => {
    ui.current.trust = { open: true, asked: true }
    rerender((tick) => tick + 1)
    void controller.trustSummary().then(
      (summary) => {
        if (summary.trusted && fromCommand) {
          ui.current.trust = { open: false, asked: true }
          dispatch({
            type: 'local',
            entry: {
              kind: 'notice',
              level: 'info',
              text: `${summary.projectRoot} is trusted (recorded in ${summary.file}); 'z-engine trust --revoke' undoes it.`,
            },
          })
        } else if (ui.current.trust.open) ui.current.trust = { open: true, asked: true, summary }
        rerender((tick) => tick + 1)
      },
      () => {},
    )
  }

  // A code rewind that left overlapping hunks asks, file by file, whether to keep or revert it whole.
  useEffect(() => {
    if (state.rewindConflicts.length === 0) return
    const open = ui.current.overlay
    // Another picker open: asked once it closes.
    if (open !== undefined && open.kind !== 'conflict') return
    ui.current.overlay =
      open === undefined
        ? { kind: 'conflict', queue: state.rewindConflicts, index: 0 }
        : { ...open, queue: [...open.queue, ...state.rewindConflicts] }
    dispatch({ type: 'conflictsTaken' })
  })

  // The first `trustRequired` of the chat opens the prompt by itself.
  useEffect(() => {
    if (state.trustRequest !== undefined && ui.current.trust.asked !== true) openTrust(false)
  })

  /** Sends a prompt with the files its `@path` mentions attached (notices for the ones left out). */
  const sendPrompt = (text: string): void => {
    if (!/(^|\s)@/.test(text)) {
      controller.send({ type: 'submit', text })
      return
    }
    void attachMentionedFiles(controller.options.projectRoot, text).then(
      ({ attachments, notices }) => {
        for (const notice of notices)
          dispatch({ type: 'local', entry: { kind: 'notice', level: 'warning', text: notice } })
        controller.send({ type: 'submit', text, ...(attachments.length > 0 ? { attachments } : {}) })
      },
      () => controller.send({ type: 'submit', text }),
    )
  }

  const notice = (level: 'info' | 'warning' | 'error', text: string): void =>
    dispatch({ type: 'local', entry: { kind: 'notice', level, text } })

  /** Ctrl-O: prints the whole output of the newest call not expanded yet (finished rows cannot be redrawn). */
  const expandOutput = (): void => {
    // With an approval card open, its whole change.
    const chat = stateRef.current
    const waiting = chat.approvals.filter((request) => !ui.current.answered.has(request.id))
    const card = waiting[Math.min(ui.current.approval.focus, waiting.length - 1)]
    if (card?.preview !== undefined) {
      const whole = previewText(card.preview, chat.projectRoot)
      dispatch({
        type: 'local',
        entry: { kind: 'toolOutput', ...whole, ...(card.preview.type === 'diff' ? { diff: true } : {}) },
      })
      return
    }
    const shown = ui.current.expanded
    const output = stateRef.current.outputs.findLast((candidate) => !shown.has(candidate.toolUseId))
    if (!output) {
      notice('info', 'No tool output to expand.')
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

  /** `/rewind` or Esc Esc: the picker of the user's messages, newest selected. */
  const openRewind = (): void => {
    const chat = stateRef.current
    if (chat.busy) {
      notice('warning', 'A turn is running: press Esc to interrupt it, then rewind.')
      return
    }
    if (chat.prompts.length === 0) {
      notice('info', 'Nothing to rewind yet: no message of yours is in this conversation.')
      return
    }
    ui.current.overlay = { kind: 'rewind', step: 'message', index: chat.prompts.length - 1 }
    rerender((tick) => tick + 1)
  }

  /** `/resume`: the picker of this project's other stored sessions, most recent first. */
  const openResume = (): void => {
    ui.current.overlay = { kind: 'resume', rows: 'loading', index: 0 }
    rerender((tick) => tick + 1)
    void controller.sessionRows().then(
      (rows) => {
        const overlay = ui.current.overlay
        if (overlay?.kind === 'resume') ui.current.overlay = { ...overlay, rows }
        rerender((tick) => tick + 1)
      },
      (error: unknown) => {
        ui.current.overlay = undefined
        notice(
          'error',
          `Could not list the sessions: ${error instanceof Error ? error.message : String(error)}`,
        )
      },
    )
  }

  /** Replaces the screen's session (`/resume`), or says why it could not. */
  const switchTo = (sessionId: string): void => {
    void controller.resume(sessionId).then(
      (fresh) => {
        setStaticKey((key) => key + 1)
        dispatch({ type: 'reset', state: fresh })
      },
      (error: unknown) =>
        notice(
          'error',
          `Could not resume ${sessionId}: ${error instanceof Error ? error.message : String(error)}`,
        ),
    )
  }

  /** Keys while a picker is open. */
  const overlayKey = (overlay: Overlay, input: string, key: Key): void => {
    const current = ui.current
    const chat = stateRef.current
    switch (overlay.kind) {
      case 'rewind': {
        if (overlay.step === 'message') {
          const result = pickerKey(messageRows(chat.prompts), overlay.index, input, key)
          if (result.type === 'cancel') current.overlay = undefined
          else if (result.type === 'move') current.overlay = { ...overlay, index: result.index }
          else if (result.type === 'choose') {
            const target = chat.prompts[result.index]
            if (target) {
              const hasCheckpoint = chat.checkpoints.has(target.messageId)
              current.overlay = { kind: 'rewind', step: 'scope', target, index: firstScope(hasCheckpoint) }
            }
          }
          return
        }
        const rows = scopeRows(chat.checkpoints.has(overlay.target.messageId))
        const result = pickerKey(rows, overlay.index, input, key)
        if (result.type === 'cancel') {
          const back = chat.prompts.findIndex((prompt) => prompt.messageId === overlay.target.messageId)
          current.overlay = { kind: 'rewind', step: 'message', index: Math.max(0, back) }
        } else if (result.type === 'move') current.overlay = { ...overlay, index: result.index }
        else if (result.type === 'choose') {
          const choice = SCOPE_CHOICES[result.index]
          current.overlay = undefined
          if (!choice) return
          controller.rewind(overlay.target.messageId, choice.scope)
          // As in Claude Code, the message comes back to the prompt to edit and send again.
          if (choice.scope !== 'code' && current.prompt.text === '')
            current.prompt = bufferOf(overlay.target.text)
        }
        return
      }
      case 'conflict': {
        const [first, ...rest] = overlay.queue
        if (!first) {
          current.overlay = undefined
          return
        }
        const result = pickerKey(conflictRows(first), overlay.index, input, key)
        if (result.type === 'move') current.overlay = { ...overlay, index: result.index }
        else if (result.type === 'cancel' || result.type === 'choose') {
          // Esc keeps the file as the rewind left it.
          if (result.type === 'choose' && conflictRows(first)[result.index]?.key === 'revert')
            controller.send({
              type: 'rewind',
              messageId: first.messageId,
              scope: 'code',
              includeEdited: true,
              only: [first.path],
            })
          else notice('info', `Kept ${first.path} as it is; its overlapping hunks stay.`)
          current.overlay = rest.length > 0 ? { kind: 'conflict', queue: rest, index: 0 } : undefined
        }
        return
      }
      case 'resume': {
        const rows = overlay.rows === 'loading' ? [] : sessionPickerRows(overlay.rows)
        if (overlay.rows === 'loading' && !key.escape) return
        const result = pickerKey(rows, overlay.index, input, key)
        if (result.type === 'cancel') current.overlay = undefined
        else if (result.type === 'move') current.overlay = { ...overlay, index: result.index }
        else if (result.type === 'choose' && overlay.rows !== 'loading') {
          const row = overlay.rows[result.index]
          current.overlay = undefined
          if (row) switchTo(row.sessionId)
        }
        return
      }
      default: {
        const unreachable: never = overlay
        throw new Error(`unknown picker ${JSON.stringify(unreachable)}`)
      }
    }
  }

  const submit = (line: string): void => {
    const parsed = parseLine(line)
    switch (parsed.type) {
      case 'prompt':
        if (parsed.text !== '') sendPrompt(parsed.text)
        return
      case 'shell':
        if (parsed.command !== '') controller.send({ type: 'runShell', command: parsed.command })
        return
      case 'engine':
        controller.send({ type: 'runCommand', name: parsed.name, args: parsed.args })
        return
      case 'cli': {
        const name = parsed.name
        switch (name) {
          case 'help':
            dispatch({
              type: 'local',
              entry: { kind: 'commandOutput', name: 'help', markdown: helpMarkdown(controller.commands) },
            })
            return
          case 'sessions':
            void controller
              .sessionsMarkdown()
              .then((markdown) =>
                dispatch({ type: 'local', entry: { kind: 'commandOutput', name: 'sessions', markdown } }),
              )
            return
          case 'clear':
            void controller.restart().then(
              (fresh) => {
                setStaticKey((key) => key + 1)
                dispatch({ type: 'reset', state: fresh })
              },
              (error: unknown) =>
                dispatch({
                  type: 'local',
                  entry: {
                    kind: 'notice',
                    level: 'error',
                    text: error instanceof Error ? error.message : String(error),
                  },
                }),
            )
            return
          case 'trust':
            openTrust(true)
            return
          case 'rewind':
            openRewind()
            return
          case 'resume':
            openResume()
            return
          case 'exit':
            onExit()
            return
          default: {
            const unreachable: never = name
            throw new Error(`unknown CLI command ${String(unreachable)}`)
          }
        }
      }
      default: {
        const unreachable: never = parsed
        throw new Error(`unknown line ${JSON.stringify(unreachable)}`)
      }
    }
  }

  /** Lists the project's files once, the first time an `@` token is being completed. */
  const ensureFiles = (): void => {
    // MCP servers start in the background: their resources are listed again until some arrive.
    if (
      ui.current.resources === undefined ||
      (Array.isArray(ui.current.resources) &&
        ui.current.resources.length === 0 &&
        ui.current.prompt.text.endsWith('@'))
    ) {
      ui.current.resources = 'loading'
      void controller.mcpResources().then((resources) => {
        ui.current.resources = resources
        rerender((tick) => tick + 1)
      })
    }
    if (ui.current.files !== undefined) return
    ui.current.files = 'loading'
    void listProjectFiles(controller.options.projectRoot).then(
      (files) => {
        ui.current.files = files
        rerender((tick) => tick + 1)
      },
      () => {
        ui.current.files = []
      },
    )
  }

  const composerKey = (event: PromptInput): void => {
    const current = ui.current
    const options = completionRows(current, controller.commands)
    if (event.type === 'key') {
      const { key } = event
      if (key.escape) {
        if (stateRef.current.busy) controller.send({ type: 'interrupt' })
        else if (current.prompt.text !== '') current.prompt = EMPTY_BUFFER
        else if (current.escAt !== undefined && now() - current.escAt < ESC_ESC_WINDOW_MS) {
          current.escAt = undefined
          openRewind()
          return
        } else {
          current.escAt = now()
          return
        }
        current.escAt = undefined
        return
      }
      if (options.length > 0 && (key.upArrow || key.downArrow)) {
        const step = key.upArrow ? -1 : 1
        current.completion = (current.completion + step + options.length) % options.length
        return
      }
      const file = tokenAtCursor(current.prompt)
      if (options.length > 0 && (key.tab || (key.return && file !== undefined)) && !key.shift) {
        const chosen = options[Math.min(current.completion, options.length - 1)]
        if (chosen && file) current.prompt = replaceToken(current.prompt, file.start, `@${chosen.key} `)
        else if (chosen) current.prompt = bufferOf(`/${chosen.key} `)
        current.completion = 0
        return
      }
    }
    const result = promptKey(current.prompt, event)
    switch (result.type) {
      case 'none':
        return
      case 'eof':
        onExit()
        return
      case 'history': {
        const recalled = recall(current.history, current.prompt, result.direction)
        current.history = recalled.history
        current.prompt = { ...bufferOf(recalled.shown.text), pastes: recalled.shown.pastes }
        return
      }
      case 'edit':
        if (result.buffer.text !== current.prompt.text) current.completion = 0
        current.prompt = result.buffer
        if (tokenAtCursor(current.prompt) !== undefined) ensureFiles()
        return
      case 'submit': {
        const typed = expandPastes(result.buffer)
        // Enter on a half-typed command name runs the highlighted completion.
        const exact = options.some((option) => `/${option.key}` === typed.trim())
        const chosen = typed.startsWith('/')
          ? options[Math.min(current.completion, options.length - 1)]
          : undefined
        const line = !exact && chosen ? `/${chosen.key}` : typed
        current.prompt = EMPTY_BUFFER
        current.completion = 0
        // Recall brings back what was typed: a large paste as its one placeholder.
        const entry = line === typed ? entryOf(result.buffer.text, result.buffer.pastes) : entryOf(line)
        current.history = remember(current.history, entry)
        if (line.trim() !== '') void controller.rememberPrompt(line, entry)
        submit(line)
        return
      }
      default: {
        const unreachable: never = result
        throw new Error(`unknown prompt result ${JSON.stringify(unreachable)}`)
      }
    }
  }

  useTerminalInput((event) => {
    const current = ui.current
    const chat = stateRef.current
    // Panels take keys; a paste reaches them as typed text on one line.
    const { input, key } =
      event.type === 'key'
        ? event
        : { input: event.type === 'paste' ? event.text.replace(/\s*[\r\n]+\s*/g, ' ') : '', key: NO_KEY }
    if (key.ctrl && input === 'c') {
      // Ctrl-C interrupts a running turn (queued messages stay), clears a written prompt, and on an
      // empty idle prompt arms quitting: a second press within the window quits.
      if (chat.busy) {
        current.ctrlCAt = undefined
        controller.send({ type: 'interrupt' })
        rerender((tick) => tick + 1)
        return
      }
      if (current.prompt.text !== '') {
        current.ctrlCAt = undefined
        current.prompt = EMPTY_BUFFER
        current.completion = 0
        rerender((tick) => tick + 1)
        return
      }
      if (current.ctrlCAt !== undefined && now() - current.ctrlCAt < CTRL_C_WINDOW_MS) {
        onExit()
        return
      }
      current.ctrlCAt = now()
      rerender((tick) => tick + 1)
      setTimeout(() => rerender((tick) => tick + 1), CTRL_C_WINDOW_MS + 10).unref?.()
      return
    }
    current.ctrlCAt = undefined
    if (key.ctrl && input === 'o') {
      expandOutput()
      return
    }
    if (key.tab && key.shift) {
      controller.send({ type: 'setMode', mode: nextMode(chat.mode, allowBypass) })
      return
    }
    if (current.overlay !== undefined && !current.trust.open) {
      overlayKey(current.overlay, input, key)
      rerender((tick) => tick + 1)
      return
    }
    if (current.trust.open) {
      const answer = trustKey(input, key)
      if (answer.type !== 'none') {
        current.trust = { open: false, asked: true }
        controller.send({ type: 'trustWorkspace', trusted: answer.type === 'trust' })
        // The reload applies the project's mode, rules, hooks, definitions and MCP servers at once.
      }
      rerender((tick) => tick + 1)
      return
    }
    const pendingApprovals = chat.approvals.filter((request) => !current.answered.has(request.id))
    const pendingPlan = chat.plans[0]
    const pendingQuestion = chat.questions[0]
    const focused = pendingApprovals[Math.min(current.approval.focus, pendingApprovals.length - 1)]
    syncOwners(current, pendingPlan?.id, pendingQuestion?.id, focused?.id)
    if (pendingPlan) {
      const result = planKey(pendingPlan, current.plan, input, key)
      if (result.type === 'resolve') {
        current.plan = INITIAL_PLAN_UI
        controller.send({ type: 'resolvePlan', planId: result.planId, decision: result.decision })
      } else if (result.type === 'ui') current.plan = result.ui
      else if (key.escape) controller.send({ type: 'interrupt' })
    } else if (pendingQuestion) {
      const result = questionKey(pendingQuestion, current.question, input, key)
      if (result.type === 'answer') {
        current.question = INITIAL_QUESTION_UI
        controller.send({ type: 'answerQuestion', questionId: result.questionId, response: result.response })
      } else current.question = result.ui
    } else if (pendingApprovals.length > 0) {
      const result = approvalKey(pendingApprovals, current.approval, input, key)
      if (result.type === 'resolve') {
        current.answered.add(result.approvalId)
        current.approval = result.ui
        controller.send({ type: 'resolveApproval', approvalId: result.approvalId, decision: result.decision })
      } else if (result.type === 'ui') current.approval = result.ui
      else if (key.escape) controller.send({ type: 'interrupt' })
    } else composerKey(event)
    rerender((tick) => tick + 1)
  })

  // The keys typed in the early prompt box after its text (Enter, Tab, arrows, a paste…), replayed
  // once, in order, through the same input path (its listeners are registered by now).
  const { internal_eventEmitter: inputEvents } = useStdin()
  const replayed = useRef(false)
  useEffect(() => {
    if (replayed.current || typed === undefined) return
    replayed.current = true
    for (const key of typed.keys) inputEvents.emit('input', key)
  }, [inputEvents, typed])

  const liveParts = [...state.live.parts.values()]
  const liveTools = [...state.live.tools.values()]
  // Rows left for streaming text once the composer, status line and running tool cards are drawn.
  const textRows = Math.max(3, (stdout.rows ?? 40) - 8 - 6 * liveTools.length - state.live.agents.size)
  const textColumns = (stdout.columns ?? 100) - 4
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
      {ui.current.trust.open ? (
        <TrustPanel summary={ui.current.trust.summary} />
      ) : ui.current.overlay !== undefined ? (
        <OverlayView overlay={ui.current.overlay} state={state} rows={stdout.rows ?? 24} />
      ) : plan ? (
        <PlanPanel plan={plan} ui={ui.current.plan} />
      ) : question ? (
        <QuestionPanel request={question} ui={ui.current.question} />
      ) : approvals.length > 0 ? (
        <ApprovalPanel requests={approvals} ui={ui.current.approval} projectRoot={state.projectRoot} />
      ) : (
        <Composer
          value={ui.current.prompt}
          matches={rows}
          selected={Math.min(ui.current.completion, Math.max(0, rows.length - 1))}
          busy={state.busy}
        />
      )}
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

/** The two answers to a file a rewind left hunks in. */
function conflictRows(conflict: RewindConflictChoice): PickerRow[] {
  return [
    { key: 'keep', label: `Keep ${conflict.path} as it is now` },
    { key: 'revert', label: `Revert ${conflict.path} whole (your edits in it too)` },
  ]
}

/** The open picker, sized to leave the status line and a few transcript rows on an 80×24 screen. */
function OverlayView({
  overlay,
  state,
  rows,
}: {
  overlay: Overlay
  state: ChatState
  rows: number
}): ReactNode {
  const height = Math.max(3, Math.min(12, rows - 12))
  switch (overlay.kind) {
    case 'rewind':
      return overlay.step === 'message' ? (
        <PickerView
          title="Rewind: go back to before which message?"
          subtitle="Code, conversation or both can be restored to how they were before it."
          rows={messageRows(state.prompts)}
          index={overlay.index}
          height={height}
        />
      ) : (
        <PickerView
          title={`Rewind to before “${overlay.target.text.replace(/\s+/g, ' ').slice(0, 50)}”`}
          subtitle="Code: only the files the agent changed since then. Your own edits stay."
          rows={scopeRows(state.checkpoints.has(overlay.target.messageId))}
          index={overlay.index}
          height={height}
          hint="↑/↓ to move · Enter to rewind · Esc to go back"
        />
      )
    case 'conflict': {
      const first = overlay.queue[0]
      if (!first) return null
      return (
        <PickerView
          title={`Rewind left ${first.hunks} hunk${first.hunks === 1 ? '' : 's'} of ${first.path}: your later edits overlap the agent's change there`}
          subtitle="The agent's other hunks were reverted. Keep the file as it is, or revert it whole?"
          rows={conflictRows(first)}
          index={overlay.index}
          height={height}
          hint="↑/↓ to move · Enter to choose · Esc to keep"
        />
      )
    }
    case 'resume':
      return (
        <PickerView
          title="Resume a session of this project"
          rows={overlay.rows === 'loading' ? [] : sessionPickerRows(overlay.rows)}
          index={overlay.index}
          height={height}
          empty={
            overlay.rows === 'loading' ? 'Reading the sessions…' : 'No other session in this project yet.'
          }
        />
      )
    default: {
      const unreachable: never = overlay
      return unreachable
    }
  }
}
