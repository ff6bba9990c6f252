import type { Key } from 'ink'
import type { ChatScreen } from './chat-screen.js'
import { trustKey } from './trust-panel.js'

/**
 * Opens the trust prompt with what trust would turn on; from `/trust` an already trusted folder
 * only gets a line saying so.
 */
export function openTrust(screen: ChatScreen, fromCommand: boolean): void {
  const { ui } = screen
  ui.trust = { open: true, asked: true }
  screen.refresh()
  void screen.controller.trustSummary().then(
    (summary) => {
      if (summary.trusted && fromCommand) {
        ui.trust = { open: false, asked: true }
        screen.dispatch({
          type: 'local',
          entry: {
            kind: 'notice',
            level: 'info',
            text: `${summary.projectRoot} is trusted (recorded in ${summary.file}); 'z-engine trust --revoke' undoes it.`,
          },
        })
      } else if (ui.trust.open) ui.trust = { open: true, asked: true, summary }
      screen.refresh()
    },
    () => {},
  )
}

/** The first `trustRequired` of the chat opens the prompt by itself. */
export function openTrustOnRequest(screen: ChatScreen): void {
  if (screen.chat().trustRequest !== undefined && screen.ui.trust.asked !== true) openTrust(screen, false)
}

/** Keys while the trust prompt is open: trust or not closes it. */
export function trustPanelKey(screen: ChatScreen, input: string, key: Key): void {
  const answer = trustKey(input, key)
  if (answer.type === 'none') return
  screen.ui.trust = { open: false, asked: true }
  // The reload applies the project's mode, rules, hooks, definitions and MCP servers at once.
  screen.controller.send({ type: 'trustWorkspace', trusted: answer.type === 'trust' })
}
