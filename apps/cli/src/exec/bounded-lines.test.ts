import { describe, expect, it } from 'vitest'
import { type BoundedLine, boundedLines } from './bounded-lines.js'

async function collect(chunks: string[], max: number): Promise<BoundedLine[]> {
  const out: BoundedLine[] = []
  async function* source() {
    for (const chunk of chunks) yield Buffer.from(chunk)
  }
  for await (const item of boundedLines(source(), max)) out.push(item)
  return out
}

describe('boundedLines', () => {
  it('splits across chunks, drops CR, keeps a last line without newline', async () => {
    expect(await collect(['ab', 'c\r\nd', 'e\n', 'f'], 100)).toEqual([
      { type: 'line', number: 1, text: 'abc' },
      { type: 'line', number: 2, text: 'de' },
      { type: 'line', number: 3, text: 'f' },
    ])
  })
  it('reports a line over the cap with its size, holding none of it, and goes on', async () => {
    expect(await collect(['12345', '67890', '12\nok\n'], 8)).toEqual([
      { type: 'tooLong', number: 1, bytes: 12 },
      { type: 'line', number: 2, text: 'ok' },
    ])
  })
  it('keeps multi-byte characters split between chunks', async () => {
    const bytes = Buffer.from('é\n')
    async function* source() {
      yield bytes.subarray(0, 1)
      yield bytes.subarray(1)
    }
    const out: BoundedLine[] = []
    for await (const item of boundedLines(source(), 10)) out.push(item)
    expect(out).toEqual([{ type: 'line', number: 1, text: 'é' }])
  })
})
