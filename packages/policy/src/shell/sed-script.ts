/** What a sed script does with files, or why it cannot be proven (`e`, unknown commands). */
export interface SedScript {
  refusal?: string
  /** Files `r`/`R` read. */
  reads: string[]
  /** Files `w`/`W` and the `s///w` flag write. */
  writes: string[]
}

const SIMPLE = new Set(['p', 'd', 'D', 'n', 'N', 'P', 'h', 'H', 'g', 'G', 'x', 'z', '=', 'F', '{', '}'])

/**
 * Reads a GNU sed script statement by statement (an allowlist of commands): print, delete,
 * substitute, transliterate, branch, hold-space and quit commands; `r`/`R` read a file and
 * `w`/`W`/`s///w` write one (their file name runs to the end of the line). `e`, the `s///e` flag,
 * `a`/`i`/`c` and anything unknown refuse.
 */
export function readSedScript(script: string): SedScript {
  const result: SedScript = { reads: [], writes: [] }
  let pos = 0
  const fail = (reason: string): SedScript => ({ ...result, refusal: reason })
  const skipBlanks = (): void => {
    while (pos < script.length && /[ \t]/.test(script[pos] as string)) pos++
  }
  const toEndOfLine = (): string => {
    const end = script.indexOf('\n', pos)
    const text = script.slice(pos, end < 0 ? script.length : end)
    pos = end < 0 ? script.length : end
    return text
  }
  /** Reads a delimited part (`/re/`, or `\cREc`) from `pos` at its opening delimiter. */
  const delimited = (delimiter: string): boolean => {
    pos++
    while (pos < script.length && script[pos] !== delimiter) {
      if (script[pos] === '\n') return false
      if (script[pos] === '\\') pos++
      pos++
    }
    if (pos >= script.length) return false
    pos++
    return true
  }
  const address = (): boolean => {
    const c = script[pos]
    if (c === undefined) return true
    if (/\d/.test(c)) {
      while (/\d/.test(script[pos] ?? '')) pos++
      if (script[pos] === '~') {
        pos++
        while (/\d/.test(script[pos] ?? '')) pos++
      }
    } else if (c === '$') pos++
    else if (c === '/' || c === '\\') {
      if (c === '\\') pos++
      const delimiter = script[pos]
      if (delimiter === undefined || delimiter === '\n' || delimiter === '\\') return false
      if (!delimited(delimiter)) return false
      while (script[pos] === 'I' || script[pos] === 'M') pos++
    }
    return true
  }
  while (pos < script.length) {
    skipBlanks()
    const c = script[pos]
    if (c === undefined) break
    if (c === ';' || c === '\n') {
      pos++
      continue
    }
    if (c === '#') {
      toEndOfLine()
      continue
    }
    if (!address()) return fail('a sed address is not closed')
    if (script[pos] === ',') {
      pos++
      if (script[pos] === '+' || script[pos] === '~') pos++
      if (!address()) return fail('a sed address is not closed')
    }
    skipBlanks()
    while (script[pos] === '!') {
      pos++
      skipBlanks()
    }
    const command = script[pos]
    if (command === undefined) return fail('a sed address without a command')
    pos++
    if (SIMPLE.has(command)) continue
    switch (command) {
      case 'q':
      case 'Q':
      case 'l':
      case 'L':
        skipBlanks()
        while (/\d/.test(script[pos] ?? '')) pos++
        break
      case 'b':
      case 't':
      case 'T':
      case ':': {
        // A label runs to `;` or the end of the line.
        while (pos < script.length && !/[;\n]/.test(script[pos] as string)) pos++
        break
      }
      case 'r':
      case 'R':
      case 'w':
      case 'W': {
        skipBlanks()
        const file = toEndOfLine()
        if (file === '') return fail(`sed ${command} without a file`)
        if (command === 'r' || command === 'R') result.reads.push(file)
        else result.writes.push(file)
        break
      }
      case 'y':
      case 's': {
        const delimiter = script[pos]
        if (delimiter === undefined || delimiter === '\n' || delimiter === '\\')
          return fail(`sed ${command} without a delimiter`)
        if (!delimited(delimiter)) return fail(`sed ${command} is not closed`)
        pos--
        if (!delimited(delimiter)) return fail(`sed ${command} is not closed`)
        if (command === 'y') break
        while (pos < script.length && /[gpiImM0-9ew]/.test(script[pos] as string)) {
          const flag = script[pos] as string
          pos++
          if (flag === 'e') return fail('the sed s///e flag runs commands')
          if (flag === 'w') {
            skipBlanks()
            const file = toEndOfLine()
            if (file === '') return fail('sed s///w without a file')
            result.writes.push(file)
            break
          }
        }
        break
      }
      case 'e':
        return fail('sed e runs commands')
      default:
        return fail(`sed ${command} is not a command the proof knows`)
    }
    skipBlanks()
    if (pos < script.length && !/[;\n}#]/.test(script[pos] as string))
      return fail('unexpected text after a sed command')
  }
  return result
}

/** A sed script is read-only when it has no refusal and writes nothing. */
export function sedScriptIsReadOnly(script: string): boolean {
  const read = readSedScript(script)
  return read.refusal === undefined && read.writes.length === 0
}
