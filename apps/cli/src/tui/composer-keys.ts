import type { Key } from 'ink'
import { submitLine } from './chat-commands.js'
import { completionRows } from './chat-input-ui.js'
import { openRewind } from './chat-rewind.js'
import type { ChatScreen } from './chat-screen.js'
import type { CompletionRow } from './composer.js'
import { listProjectFiles } from './file-index.js'
import { entryOf, recall, remember } from './input-history.js'
import { bufferOf, EMPTY_BUFFER, expandPastes, replaceToken, tokenAtCursor } from './prompt-buffer.js'
import { type PromptInput, promptKey } from './prompt-keys.js'

/** How soon a second Esc on an empty prompt must follow the first to open the rewind picker. */
export const ESC_ESC_WINDOW_MS = 1000

/** Lists the project's files once, the first time an `@` token is being completed. */
function ensureFiles(screen: ChatScreen): void {
  const { ui, controller } = screen
  // MCP servers start in the background: their resources are listed again until some arrive.
  if (
    ui.resources === undefined ||
    (Array.isArray(ui.resources) && ui.resources.length === 0 && ui.prompt.text.endsWith('@'))
  ) {
    ui.resources = 'loading'
    void controller.mcpResources().then((resources) => {
      ui.resources = resources
      screen.refresh()
    })
  }
  if (ui.files !== undefined) return
  ui.files = 'loading'
  void listProjectFiles(controller.options.projectRoot).then(
    (files) => {
      ui.files = files
      screen.refresh()
    },
    () => {
      ui.files = []
    },
  )
}

/**
 * Esc interrupts a running turn, clears a written prompt, and twice on an empty idle prompt opens
 * `/rewind`.
 */
function escapeKey(screen: ChatScreen): void {
  const { ui } = screen
  if (screen.chat().busy) screen.controller.send({ type: 'interrupt' })
  else if (ui.prompt.text !== '') ui.prompt = EMPTY_BUFFER
  else if (ui.escAt !== undefined && screen.now() - ui.escAt < ESC_ESC_WINDOW_MS) {
    ui.escAt = undefined
    openRewind(screen)
    return
  } else {
    ui.escAt = screen.now()
    return
  }
  ui.escAt = undefined
}

/** Arrows move through the completions; Tab (or Enter on an `@` token) takes one. Whether it used the key. */
function completionKey(screen: ChatScreen, options: readonly CompletionRow[], key: Key): boolean {
  const { ui } = screen
  if (options.length === 0) return false
  if (key.upArrow || key.downArrow) {
    const step = key.upArrow ? -1 : 1
    ui.completion = (ui.completion + step + options.length) % options.length
    return true
  }
  const file = tokenAtCursor(ui.prompt)
  if ((key.tab || (key.return && file !== undefined)) && !key.shift) {
    const chosen = options[Math.min(ui.completion, options.length - 1)]
    if (chosen && file) ui.prompt = replaceToken(ui.prompt, file.start, `@${chosen.key} `)
    else if (chosen) ui.prompt = bufferOf(`/${chosen.key} `)
    ui.completion = 0
    return true
  }
  return false
}

/** Keys in the composer: editing, history, completions, and Enter to submit. */
export function composerKey(screen: ChatScreen, event: PromptInput): void {
  const { ui, controller } = screen
  const options = completionRows(ui, controller.commands)
  if (event.type === 'key') {
    if (event.key.escape) {
      escapeKey(screen)
      return
    }
    if (completionKey(screen, options, event.key)) return
  }
  const result = promptKey(ui.prompt, event)
  switch (result.type) {
    case 'none':
      return
    case 'eof':
      screen.onExit()
      return
    case 'history': {
      const recalled = recall(ui.history, ui.prompt, result.direction)
      ui.history = recalled.history
      ui.prompt = { ...bufferOf(recalled.shown.text), pastes: recalled.shown.pastes }
      return
    }
    case 'edit':
      if (result.buffer.text !== ui.prompt.text) ui.completion = 0
      ui.prompt = result.buffer
      if (tokenAtCursor(ui.prompt) !== undefined) ensureFiles(screen)
      return
    case 'submit': {
      const typed = expandPastes(result.buffer)
      // Enter on a half-typed command name runs the highlighted completion.
      const exact = options.some((option) => `/${option.key}` === typed.trim())
      const chosen = typed.startsWith('/') ? options[Math.min(ui.completion, options.length - 1)] : undefined
      const line = !exact && chosen ? `/${chosen.key}` : typed
      ui.prompt = EMPTY_BUFFER
      ui.completion = 0
      // Recall brings back what was typed: a large paste as its one placeholder.
      const entry = line === typed ? entryOf(result.buffer.text, result.buffer.pastes) : entryOf(line)
      ui.history = remember(ui.history, entry)
      if (line.trim() !== '') void controller.rememberPrompt(line, entry)
      submitLine(screen, line)
      return
    }
    default: {
      const unreachable: never = result
      throw new Error(`unknown prompt result ${JSON.stringify(unreachable)}`)
    }
  }
}
