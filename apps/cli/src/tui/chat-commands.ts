import { openResume } from './chat-resume.js'
import { openRewind } from './chat-rewind.js'
import { type ChatScreen, errorText, notice, showSession } from './chat-screen.js'
import { openTrust } from './chat-trust.js'
import { attachMentionedFiles } from './file-mentions.js'
import { helpMarkdown } from './help-text.js'
import { type CliCommandName, parseLine } from './slash-commands.js'

/** Sends a prompt with the files its `@path` mentions attached (notices for the ones left out). */
function sendPrompt(screen: ChatScreen, text: string): void {
  const { controller } = screen
  if (!/(^|\s)@/.test(text)) {
    controller.send({ type: 'submit', text })
    return
  }
  void attachMentionedFiles(controller.options.projectRoot, text).then(
    ({ attachments, notices }) => {
      for (const warning of notices) notice(screen, 'warning', warning)
      controller.send({ type: 'submit', text, ...(attachments.length > 0 ? { attachments } : {}) })
    },
    () => controller.send({ type: 'submit', text }),
  )
}

/** Runs one of the CLI's own `/` commands (the engine's go to the session). */
function runCliCommand(screen: ChatScreen, name: CliCommandName): void {
  const { controller, dispatch } = screen
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
        (fresh) => showSession(screen, fresh),
        (error: unknown) => notice(screen, 'error', errorText(error)),
      )
      return
    case 'trust':
      openTrust(screen, true)
      return
    case 'rewind':
      openRewind(screen)
      return
    case 'resume':
      openResume(screen)
      return
    case 'exit':
      screen.onExit()
      return
    default: {
      const unreachable: never = name
      throw new Error(`unknown CLI command ${String(unreachable)}`)
    }
  }
}

/** Runs a line the user submitted: a prompt, `!shell`, an engine `/command` or one of the CLI's. */
export function submitLine(screen: ChatScreen, line: string): void {
  const { controller } = screen
  const parsed = parseLine(line)
  switch (parsed.type) {
    case 'prompt':
      if (parsed.text !== '') sendPrompt(screen, parsed.text)
      return
    case 'shell':
      if (parsed.command !== '') controller.send({ type: 'runShell', command: parsed.command })
      return
    case 'engine':
      controller.send({ type: 'runCommand', name: parsed.name, args: parsed.args })
      return
    case 'cli':
      runCliCommand(screen, parsed.name)
      return
    default: {
      const unreachable: never = parsed
      throw new Error(`unknown line ${JSON.stringify(unreachable)}`)
    }
  }
}
