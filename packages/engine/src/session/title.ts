/** The longest title taken from a prompt, in characters. */
export const PROMPT_TITLE_MAX = 60

/**
 * A session title from its first prompt: the first non-empty line, whitespace collapsed, cut at a
 * word near {@link PROMPT_TITLE_MAX} characters with an ellipsis. Undefined for a prompt with no text.
 */
export function titleFromPrompt(text: string): string | undefined {
  const line = text
    .split('\n')
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .find((part) => part !== '')
  if (line === undefined) return undefined
  const chars = [...line]
  if (chars.length <= PROMPT_TITLE_MAX) return line
  const cut = chars.slice(0, PROMPT_TITLE_MAX - 1).join('')
  const space = cut.lastIndexOf(' ')
  return `${(space > PROMPT_TITLE_MAX / 2 ? cut.slice(0, space) : cut).trimEnd()}…`
}
