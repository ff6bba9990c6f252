/**
 * Splits an argument string into words the way a POSIX shell would for plain words: whitespace
 * separates, '…' is literal, "…" allows \" and \\ escapes, a backslash escapes the next character.
 * An unclosed quote runs to the end (never an error: this is user input).
 */
export function splitShellWords(input: string): string[] {
  const words: string[] = []
  let current = ''
  let inWord = false
  let quote: "'" | '"' | undefined
  for (let index = 0; index < input.length; index++) {
    const char = input[index]!
    if (quote === "'") {
      if (char === "'") quote = undefined
      else current += char
      continue
    }
    if (quote === '"') {
      if (char === '"') quote = undefined
      else if (char === '\\' && (input[index + 1] === '"' || input[index + 1] === '\\'))
        current += input[++index]
      else current += char
      continue
    }
    if (char === "'" || char === '"') {
      quote = char
      inWord = true
    } else if (char === '\\' && index + 1 < input.length) {
      current += input[++index]
      inWord = true
    } else if (/\s/.test(char)) {
      if (inWord) words.push(current)
      current = ''
      inWord = false
    } else {
      current += char
      inWord = true
    }
  }
  if (inWord) words.push(current)
  return words
}

/** What a template may refer to besides the argument string (skills add these). */
export interface SubstitutionExtras {
  /** Named arguments (`arguments: [issue, branch]`), mapped to the words in order: `$issue`. */
  names?: readonly string[]
  /** The skill's folder, for `${CLAUDE_SKILL_DIR}`. */
  skillDir?: string
}

const PLACEHOLDER =
  /\\\$|\$\{CLAUDE_SKILL_DIR\}|\$ARGUMENTS\[(\d+)\]|\$ARGUMENTS(?![\w[])|\$(\d+)(?!\d)|\$([A-Za-z_][\w-]*)/g

/**
 * Substitutes arguments as Claude Code does: `$ARGUMENTS` is the argument string as typed,
 * `$ARGUMENTS[N]` and its shorthand `$N` the N-th shell-style word counting from 0 (a missing one
 * stays as written), `$name` a named argument, `${CLAUDE_SKILL_DIR}` the skill's folder, and `\$` a
 * literal dollar. A template without any argument placeholder gets the arguments appended
 * (`ARGUMENTS: …`), so they are never silently dropped.
 */
export function substituteArguments(template: string, args: string, extras: SubstitutionExtras = {}): string {
  const trimmed = args.trim()
  const words = splitShellWords(trimmed)
  const names = extras.names ?? []
  let used = false
  const result = template.replace(
    PLACEHOLDER,
    (match, indexed: string | undefined, short: string | undefined, named: string | undefined) => {
      if (match === '\\$') return '$'
      if (match === '${CLAUDE_SKILL_DIR}') return extras.skillDir ?? match
      if (named !== undefined) {
        const position = names.indexOf(named)
        if (position < 0) return match
        used = true
        return words[position] ?? ''
      }
      used = true
      const position = indexed ?? short
      if (position === undefined) return trimmed
      return words[Number(position)] ?? match
    },
  )
  if (!used && trimmed !== '') return `${result}\n\nARGUMENTS: ${trimmed}`
  return result
}
