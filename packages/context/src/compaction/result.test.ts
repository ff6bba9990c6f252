import { describe, expect, it } from 'vitest'
import { generateTranscript } from '../test-support/transcripts.js'
import { applySummary, buildSummaryMessage, compactionMarker, SUMMARY_LABEL } from './result.js'
import { buildSummaryPrompt, renderTranscript } from './transcript.js'

describe('summary message and marker', () => {
  it('carries the todos, plan and loaded skills next to the summary', () => {
    const message = buildSummaryMessage('s1', ' We fixed the parser. ', {
      todos: [
        { content: 'Fix parser', status: 'completed' },
        { content: 'Add tests', status: 'in_progress' },
      ],
      plan: '1. parser\n2. tests',
      loadedSkills: [
        { name: 'pdf', content: 'Use pdftotext.' },
        { name: 'release', content: 'Tag, then publish.' },
      ],
    })
    expect(message).toMatchObject({ id: 's1', role: 'user' })
    const text = message.content[0]!.type === 'text' ? message.content[0]!.text : ''
    expect(text.startsWith(`${SUMMARY_LABEL}\n\nWe fixed the parser.`)).toBe(true)
    expect(text).toContain('<todos>\n- [completed] Fix parser\n- [in_progress] Add tests\n</todos>')
    expect(text).toContain('<plan>\n1. parser\n2. tests\n</plan>')
    expect(text).toContain('<loaded-skill name="pdf">\nUse pdftotext.\n</loaded-skill>')
    expect(text).toContain('<loaded-skill name="release">\nTag, then publish.\n</loaded-skill>')
    const bare = buildSummaryMessage('s2', 'x', { todos: [], loadedSkills: [] })
    expect(bare.content[0]).toEqual({ type: 'text', text: `${SUMMARY_LABEL}\n\nx` })
  })

  it('replaces the summarized prefix and keeps the rest word for word', () => {
    const messages = generateTranscript(3, 2)
    const summary = buildSummaryMessage('s', 'sum', { todos: [], loadedSkills: [] })
    const result = applySummary(messages, 4, summary)
    expect(result[0]).toBe(summary)
    expect(result.slice(1)).toEqual(messages.slice(4))
  })

  it('builds the marker with sizes before and after', () => {
    expect(
      compactionMarker({
        id: 'm',
        trigger: 'manual',
        tokensBefore: 9000.4,
        tokensAfter: 1200,
        messagesSummarized: 40,
        focus: ' tests ',
      }),
    ).toEqual({
      id: 'm',
      trigger: 'manual',
      tokensBefore: 9000,
      tokensAfter: 1200,
      messagesSummarized: 40,
      focus: 'tests',
    })
    expect(
      compactionMarker({ id: 'm', trigger: 'auto', tokensBefore: 1, tokensAfter: 0, messagesSummarized: 2 }),
    ).not.toHaveProperty('focus')
  })
})

describe('renderTranscript', () => {
  it('renders roles, calls and results, shortening long blocks and dropping reasoning', () => {
    const messages = generateTranscript(1, 1, { resultChars: 10_000 })
    messages[1]!.content.push({ type: 'thinking', thinking: 'secret reasoning' })
    const text = renderTranscript(messages, { maxBlockChars: 100 })
    expect(text).toContain('[user] please do the thing')
    expect(text).toContain('[tool call Read call')
    expect(text).toContain('[… 9900 characters omitted …]')
    expect(text).not.toContain('secret reasoning')
    expect(renderTranscript(messages, { maxChars: 50 }).length).toBeLessThan(120)
    expect(buildSummaryPrompt('Summarize.\n', 'T')).toBe('Summarize.\n\n<transcript>\nT\n</transcript>')
  })
})
