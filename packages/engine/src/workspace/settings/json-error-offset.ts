/**
 * The offset of the first syntax error in a JSON text, for messages with a line number (Node 20's
 * JSON.parse errors do not always say where). Returns undefined when the text is valid JSON.
 */
export function jsonErrorOffset(text: string): number | undefined {
  let index = 0
  const fail = (): never => {
    throw index
  }
  const space = () => {
    while (index < text.length && ' \t\r\n'.includes(text[index]!)) index++
  }
  const literal = (word: string) => {
    if (text.startsWith(word, index)) index += word.length
    else fail()
  }
  const string = () => {
    index++
    while (index < text.length && text[index] !== '"') {
      if (text[index] === '\\') index++
      else if (text.charCodeAt(index) < 0x20) fail()
      index++
    }
    if (index >= text.length) fail()
    index++
  }
  const value = (): void => {
    space()
    const char = text[index]
    if (char === '{') {
      index++
      space()
      if (text[index] === '}') {
        index++
        return
      }
      for (;;) {
        space()
        if (text[index] !== '"') fail()
        string()
        space()
        if (text[index] !== ':') fail()
        index++
        value()
        space()
        if (text[index] === ',') index++
        else if (text[index] === '}') {
          index++
          return
        } else fail()
      }
    }
    if (char === '[') {
      index++
      space()
      if (text[index] === ']') {
        index++
        return
      }
      for (;;) {
        value()
        space()
        if (text[index] === ',') index++
        else if (text[index] === ']') {
          index++
          return
        } else fail()
      }
    }
    if (char === '"') string()
    else if (char === 't') literal('true')
    else if (char === 'f') literal('false')
    else if (char === 'n') literal('null')
    else number()
  }
  const number = () => {
    const match = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(index))
    if (match === null) fail()
    else index += match[0].length
  }
  try {
    value()
    space()
    return index < text.length ? index : undefined
  } catch (offset) {
    return offset as number
  }
}
