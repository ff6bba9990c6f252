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

const PLACEHOLDERS = /\$ARGUMENTS\b|\$([1-9])(?![0-9])/g

/**
 * Substitutes `$ARGUMENTS` (the whole argument string) and `$1`..`$9` (its shell-style words; a
 * missing word is empty). A template without placeholders gets the arguments appended, so they are
 * never silently dropped.
 */
export function substituteArguments(template: string, args: string): string {
  const trimmed = args.trim()
  const words = splitShellWords(trimmed)
  let used = false
  const result = template.replace(PLACEHOLDERS, (_placeholder, position: string | undefined) => {
    used = true
    if (position === undefined) return trimmed
    return words[Number(position) - 1] ?? ''
  })
  if (!used && trimmed !== '') return `${result}\n\nARGUMENTS: ${trimmed}`
  return result
}
