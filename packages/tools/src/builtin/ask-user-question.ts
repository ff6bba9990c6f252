import { toolDescription } from '@z-engine/prompts'
import { guardPort, portMissing } from '../port-results.js'
import type { UserQuestion } from '../ports.js'
import { errorResult, textResult } from '../results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'

/** AskUserQuestion's input (Claude Code's shape). */
export interface AskUserQuestionInput {
  questions: Array<{
    question: string
    header: string
    options: Array<{ label: string; description: string }>
    multiSelect?: boolean
  }>
}

const NAME = 'AskUserQuestion'

/** AskUserQuestion: asks the user one to four multiple-choice questions (main agent only). */
export const askUserQuestionTool: Tool<AskUserQuestionInput> = {
  name: NAME,
  description: () => toolDescription(NAME),
  inputSchema: {
    type: 'object',
    properties: {
      questions: {
        type: 'array',
        minItems: 1,
        maxItems: 4,
        description: 'Questions to ask the user (1-4).',
        items: {
          type: 'object',
          properties: {
            question: { type: 'string', minLength: 1, description: 'The full question, ending with "?".' },
            header: {
              type: 'string',
              minLength: 1,
              maxLength: 12,
              description: 'A label of at most 12 characters.',
            },
            options: {
              type: 'array',
              minItems: 2,
              maxItems: 4,
              description: 'The choices (2-4); the user can always type another answer.',
              items: {
                type: 'object',
                properties: {
                  label: { type: 'string', minLength: 1, description: 'The choice, in 1-5 words.' },
                  description: { type: 'string', description: 'What choosing it means.' },
                },
                required: ['label', 'description'],
              },
            },
            multiSelect: {
              type: 'boolean',
              default: false,
              description: 'Whether several options may be chosen.',
            },
          },
          required: ['question', 'header', 'options'],
        },
      },
    },
    required: ['questions'],
    additionalProperties: false,
  },
  isReadOnly: () => true,
  // One dialog at a time: the user answers questions in the order they were asked.
  isConcurrencySafe: () => false,
  action: (input, ctx) => actionFor(NAME, input, ctx),
  title: (input) => {
    const count = Array.isArray(input.questions) ? input.questions.length : 0
    return count === 1 ? 'Ask the user a question' : `Ask the user ${count} questions`
  },
  preview: async () => undefined,
  async call(input, ctx, signal) {
    const interaction = ctx.ports.interaction
    if (interaction === undefined) return portMissing(NAME, 'user interaction')
    const questions: UserQuestion[] = input.questions.map((question) => ({
      question: question.question,
      header: question.header,
      options: question.options.map((option) => ({ label: option.label, description: option.description })),
      multiSelect: question.multiSelect === true,
    }))
    const problem = invalidQuestions(questions)
    if (problem !== undefined) return errorResult('invalid_input', problem)
    return guardPort(NAME, async () => {
      const answers = await interaction.ask(questions, signal)
      if (answers === undefined) {
        return errorResult(
          'dismissed',
          'The user dismissed the questions without answering. Continue with your best judgment and say which assumptions you made, or ask again in plain text if you cannot proceed.',
        )
      }
      const lines = questions.map((question, index) => {
        const answer = answers[index] ?? []
        const rendered = answer.length === 0 ? '(no answer)' : answer.join(', ')
        return `- "${question.question}" → ${rendered}`
      })
      return textResult(
        `The user answered your questions:\n${lines.join('\n')}\n\nContinue with these answers in mind.`,
        { details: { questions, answers } },
      )
    })
  },
}

/** Checks what the schema can't: distinct questions, distinct labels within a question. */
function invalidQuestions(questions: UserQuestion[]): string | undefined {
  const texts = new Set<string>()
  for (const question of questions) {
    if (texts.has(question.question))
      return `The question "${question.question}" is asked twice; ask it once.`
    texts.add(question.question)
    const labels = new Set<string>()
    for (const option of question.options) {
      if (labels.has(option.label)) {
        return `The option "${option.label}" appears twice in "${question.question}"; make each label distinct.`
      }
      labels.add(option.label)
    }
  }
  return undefined
}
