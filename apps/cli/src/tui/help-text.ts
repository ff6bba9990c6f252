import type { SlashCommand } from './slash-commands.js'

/** `/help`: the keys, then every command the composer completes. */
export function helpMarkdown(commands: readonly SlashCommand[]): string {
  return [
    '**Keys**',
    '- `Enter` send (while a turn runs, the message is queued as steering)',
    '- `\\`+`Enter`, `Alt+Enter` or `Shift+Enter` new line; pastes keep their lines (large ones show as `[Pasted text #N]`)',
    '- `←`/`→`, `Home`/`End`, `Ctrl+A`/`Ctrl+E`, `Alt+B`/`Alt+F` move; `Ctrl+W`, `Ctrl+K`, `Ctrl+U` delete',
    "- `↑`/`↓` recall this project's earlier prompts",
    '- `Tab` complete a `/` command or an `@` file (the file is attached to the prompt)',
    '- `!command` run a shell line in the project folder; its output is shown and given to the agent',
    '- `Esc` or `Ctrl+C` interrupt the running turn (queued messages are kept)',
    '- `Esc` twice on an empty prompt opens `/rewind` (go back to before one of your messages)',
    '- `Ctrl+O` print the whole output of the latest tool call (cards show its last lines)',
    '- `Shift+Tab` cycle the permission mode',
    '- `Ctrl+C` clears the prompt; twice on an empty prompt quits, as does `Ctrl+D`',
    '- approvals: `y` once, `a` always in this chat, `p` always in this project, `n` deny with feedback, `←`/`→` switch card',
    '',
    '**Commands**',
    ...commands.map(
      (command) =>
        `- \`/${command.name}${command.argumentHint !== undefined ? ` ${command.argumentHint}` : ''}\` ${command.description}`,
    ),
  ].join('\n')
}
