import type { SlashCommand } from './slash-commands.js'

/** `/help`: the keys, then every command the composer completes. */
export function helpMarkdown(commands: readonly SlashCommand[]): string {
  return [
    '**Keys**',
    '- `Enter` send (while a turn runs, the message is queued as steering)',
    '- `Esc` interrupt the running turn',
    '- `Shift+Tab` cycle the permission mode',
    '- `Tab` complete a `/` command, `↑`/`↓` choose one (otherwise `↑`/`↓` recall earlier prompts)',
    '- `Ctrl+C` twice to quit',
    '- approvals: `y` once, `a` always in this chat, `p` always in this project, `n` deny with feedback, `←`/`→` switch card',
    '',
    '**Commands**',
    ...commands.map(
      (command) =>
        `- \`/${command.name}${command.argumentHint !== undefined ? ` ${command.argumentHint}` : ''}\` ${command.description}`,
    ),
  ].join('\n')
}
