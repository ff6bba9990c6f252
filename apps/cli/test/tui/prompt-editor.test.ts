import type { Key } from 'ink'
import { describe, expect, it } from 'vitest'
import { matchFiles } from '../../src/tui/file-index.js'
import {
  backspace,
  bufferOf,
  deleteWordBefore,
  EMPTY_BUFFER,
  expandPastes,
  killToEnd,
  killToStart,
  paste,
  verticalMove,
  wordLeft,
  wordRight,
} from '../../src/tui/prompt-buffer.js'
import { promptKey } from '../../src/tui/prompt-keys.js'
import { parseLine } from '../../src/tui/slash-commands.js'
import { NO_KEY, splitTypeahead } from '../../src/tui/use-terminal-input.js'

const key = (input: string, flags: Partial<Key> = {}, raw = input) =>
  ({ type: 'key', input, key: { ...NO_KEY, ...flags }, raw }) as const

describe('the prompt buffer', () => {
  it('collapses a large paste to a placeholder, removed whole and expanded on send', () => {
    const text = Array.from({ length: 12 }, (_, index) => `line ${index}`).join('\r\n')
    const pasted = paste(bufferOf('see '), text)
    expect(pasted.text).toBe('see [Pasted text #1 +12 lines]')
    expect(expandPastes(pasted)).toBe(`see ${text.replace(/\r\n/g, '\n')}`)
    expect(backspace(pasted).text).toBe('see ')
    expect(paste(EMPTY_BUFFER, 'a\rb').text).toBe('a\nb')
  })

  it('moves by words and kills to either end of the line', () => {
    const buffer = bufferOf('say hello now')
    expect(wordLeft(buffer).cursor).toBe(10)
    expect(wordRight({ ...buffer, cursor: 0 }).cursor).toBe(3)
    expect(killToEnd({ ...buffer, cursor: 4 }).text).toBe('say ')
    expect(killToStart({ ...buffer, cursor: 4 }).text).toBe('hello now')
    expect(deleteWordBefore(bufferOf('git commit -m x')).text).toBe('git commit -m ')
  })

  it('moves between lines keeping the column, and leaves the first and last line to history', () => {
    const buffer = { ...bufferOf('abc\nde\nfghi'), cursor: 10 }
    const up = verticalMove(buffer, -1)
    expect(up?.cursor).toBe(6)
    expect(verticalMove({ ...buffer, cursor: 1 }, -1)).toBeUndefined()
    expect(verticalMove(buffer, 1)).toBeUndefined()
  })
})

describe('prompt keys', () => {
  it('sends on Enter, breaks the line after a backslash, on Alt+Enter and Shift+Enter', () => {
    expect(promptKey(bufferOf('hi'), key('', { return: true }, '\r')).type).toBe('submit')
    const continued = promptKey(bufferOf('hi\\'), key('', { return: true }, '\r'))
    expect(continued).toMatchObject({ type: 'edit', buffer: { text: 'hi\n' } })
    expect(promptKey(bufferOf('hi'), key('', { return: true, meta: true }, '\u001b\r'))).toMatchObject({
      buffer: { text: 'hi\n' },
    })
    expect(promptKey(bufferOf('hi'), { type: 'newline' })).toMatchObject({ buffer: { text: 'hi\n' } })
  })

  it('keeps a multi-line chunk whole, sends a chunk ending in one Enter, quits on Ctrl-D when empty', () => {
    expect(promptKey(EMPTY_BUFFER, key('a\rb\r'))).toMatchObject({ type: 'edit', buffer: { text: 'a\nb\n' } })
    expect(promptKey(EMPTY_BUFFER, key('go\r'))).toMatchObject({ type: 'submit', buffer: { text: 'go' } })
    expect(promptKey(bufferOf('one\\'), key('\rtwo'))).toMatchObject({ buffer: { text: 'one\ntwo' } })
    expect(promptKey(EMPTY_BUFFER, key('d', { ctrl: true })).type).toBe('eof')
    expect(promptKey(bufferOf('x'), key('d', { ctrl: true })).type).toBe('edit')
  })

  it('tells Delete from Backspace by the raw sequence', () => {
    const buffer = { ...bufferOf('abc'), cursor: 1 }
    expect(promptKey(buffer, key('', { delete: true }, '\u007f'))).toMatchObject({ buffer: { text: 'bc' } })
    expect(promptKey(buffer, key('', { delete: true }, '\u001b[3~'))).toMatchObject({
      buffer: { text: 'ac' },
    })
  })

  it('splits control keys out of text read in one chunk', () => {
    const events = splitTypeahead('\u0001say \u0005!')
    expect(events.map((event) => (event.type === 'key' ? [event.input, event.key.ctrl] : []))).toEqual([
      ['a', true],
      ['say ', false],
      ['e', true],
      ['!', false],
    ])
  })
})

describe('completion and shell lines', () => {
  it('ranks files whose path or name starts with the query first', () => {
    expect(matchFiles(['docs/alpha.md', 'src/alpha.ts', 'lib/beta-alpha.ts', 'alpha/x.ts'], 'alp')).toEqual([
      'alpha/x.ts',
      'src/alpha.ts',
      'docs/alpha.md',
      'lib/beta-alpha.ts',
    ])
  })

  it('reads `!cmd` as a shell line', () => {
    expect(parseLine('!ls -la')).toEqual({ type: 'shell', command: 'ls -la' })
  })
})
