import { afterEach, describe, expect, it } from 'vitest'
import type { Ports } from '../ports.js'
import { RecordingInteraction } from '../recording-ports.js'
import { makeTestCtx, resultText } from '../testing.js'
import { askUserQuestionTool } from './ask-user-question.js'

const signal = new AbortController().signal
const contexts: Array<ReturnType<typeof makeTestCtx>> = []
const ctxWith = (ports: Ports) => {
  const ctx = makeTestCtx({ ports })
  contexts.push(ctx)
  return ctx
}
afterEach(() => {
  for (const ctx of contexts.splice(0)) ctx.cleanup()
})

describe('AskUserQuestion', () => {
  const questions = [
    {
      question: 'Which auth method should the API use?',
      header: 'Auth',
      options: [
        { label: 'JWT (Recommended)', description: 'Stateless tokens' },
        { label: 'Sessions', description: 'Server-side state' },
      ],
      multiSelect: false,
    },
    {
      question: 'Which features do you want?',
      header: 'Features',
      options: [
        { label: 'Search', description: 'Full-text search' },
        { label: 'Export', description: 'CSV export' },
      ],
      multiSelect: true,
    },
  ]

  it('asks through the port and reports each answer with its question', async () => {
    const interaction = new RecordingInteraction([['JWT (Recommended)'], ['Search', 'Export']])
    const result = await askUserQuestionTool.call({ questions }, ctxWith({ interaction }), signal)
    expect(interaction.asked).toEqual([questions])
    expect(resultText(result)).toContain('- "Which auth method should the API use?" → JWT (Recommended)')
    expect(resultText(result)).toContain('- "Which features do you want?" → Search, Export')
  })

  it('defaults multiSelect to false and passes free-text answers through', async () => {
    const interaction = new RecordingInteraction([['Use OAuth via GitHub']])
    const { multiSelect: _dropped, ...withoutMultiSelect } = questions[0]!
    const single = [withoutMultiSelect]
    const result = await askUserQuestionTool.call({ questions: single }, ctxWith({ interaction }), signal)
    expect(interaction.asked[0]![0]!.multiSelect).toBe(false)
    expect(resultText(result)).toContain('→ Use OAuth via GitHub')
  })

  it('tells the model how to go on when the user dismisses the dialog', async () => {
    const interaction = new RecordingInteraction('dismissed')
    const result = await askUserQuestionTool.call({ questions }, ctxWith({ interaction }), signal)
    expect(result.ok).toBe(false)
    expect(resultText(result)).toMatch(/dismissed.*best judgment/)
  })

  it('refuses duplicate labels before asking', async () => {
    const interaction = new RecordingInteraction()
    const duplicate = [{ ...questions[0]!, options: [questions[0]!.options[0]!, questions[0]!.options[0]!] }]
    const result = await askUserQuestionTool.call({ questions: duplicate }, ctxWith({ interaction }), signal)
    expect(resultText(result)).toContain('appears twice')
    expect(interaction.asked).toEqual([])
  })

  it('limits headers to 12 characters and opts out of concurrency', () => {
    const schema = askUserQuestionTool.inputSchema as {
      properties: {
        questions: { maxItems: number; items: { properties: { header: { maxLength: number } } } }
      }
    }
    expect(schema.properties.questions.maxItems).toBe(4)
    expect(schema.properties.questions.items.properties.header.maxLength).toBe(12)
    expect(askUserQuestionTool.isConcurrencySafe({ questions })).toBe(false)
    expect(askUserQuestionTool.title({ questions }, ctxWith({}))).toBe('Ask the user 2 questions')
  })

  it('turns a throwing port into an error result', async () => {
    const interaction = new RecordingInteraction()
    interaction.ask = async () => {
      throw new Error('broker closed')
    }
    const result = await askUserQuestionTool.call({ questions }, ctxWith({ interaction }), signal)
    expect(resultText(result)).toContain('broker closed')
  })
})
