import type { QuestionAnswer, QuestionRequest, QuestionResponse } from '@z-engine/protocol'
import { Box, type Key, Text } from 'ink'
import type { ReactNode } from 'react'
import { editLine } from './line-edit.js'

/** Progress through one AskUserQuestion request: questions are answered in order. */
export interface QuestionUi {
  index: number
  answers: QuestionAnswer[]
  highlight: number
  /** Option labels ticked on a multi-select question. */
  ticked: string[]
  /** Free text typed instead of (or besides) the options. */
  other: string
}

/** The panel's state before any key. */
export const INITIAL_QUESTION_UI: QuestionUi = { index: 0, answers: [], highlight: 0, ticked: [], other: '' }

/** What a key on the question panel leads to. */
export type QuestionKeyResult =
  | { type: 'ui'; ui: QuestionUi }
  | { type: 'answer'; questionId: string; response: QuestionResponse }

/**
 * Handles a key while the agent waits on questions: ↑/↓ and Enter (or a digit) choose, Space ticks
 * on a multi-select question, typing writes your own answer (not on a closed choice, `freeText:
 * false`), Esc dismisses the whole request.
 */
export function questionKey(
  request: QuestionRequest,
  ui: QuestionUi,
  input: string,
  key: Key,
): QuestionKeyResult {
  const question = request.questions[ui.index]
  if (key.escape || !question)
    return { type: 'answer', questionId: request.id, response: { type: 'dismissed' } }
  const labels = question.options.map((option) => option.label)
  const finish = (typed: string, selected: string[]): QuestionKeyResult => {
    const other = typed.trim()
    const answer: QuestionAnswer = {
      question: question.question,
      selected,
      ...(other !== '' ? { other } : {}),
    }
    const answers = [...ui.answers, answer]
    if (ui.index + 1 < request.questions.length)
      return { type: 'ui', ui: { ...INITIAL_QUESTION_UI, index: ui.index + 1, answers } }
    return { type: 'answer', questionId: request.id, response: { type: 'answered', answers } }
  }
  const toggle = (label: string): QuestionUi => ({
    ...ui,
    ticked: ui.ticked.includes(label) ? ui.ticked.filter((item) => item !== label) : [...ui.ticked, label],
  })
  if (key.upArrow) return { type: 'ui', ui: { ...ui, highlight: Math.max(0, ui.highlight - 1) } }
  if (key.downArrow)
    return { type: 'ui', ui: { ...ui, highlight: Math.min(labels.length - 1, ui.highlight + 1) } }
  const digit = ui.other === '' ? Number.parseInt(input, 10) : Number.NaN
  if (digit >= 1 && digit <= labels.length) {
    const label = labels[digit - 1] as string
    return question.multiSelect ? { type: 'ui', ui: toggle(label) } : finish('', [label])
  }
  if (question.multiSelect && input === ' ' && ui.other === '') {
    const label = labels[ui.highlight]
    return { type: 'ui', ui: label !== undefined ? toggle(label) : ui }
  }
  // A closed choice (a yes/no consent) takes no typed answer: Enter picks the highlighted option.
  if (question.freeText === false) {
    if (!key.return) return { type: 'ui', ui }
    if (question.multiSelect) return finish('', ui.ticked)
    const highlighted = labels[ui.highlight]
    return highlighted !== undefined ? finish('', [highlighted]) : { type: 'ui', ui }
  }
  const edit = editLine(ui.other, input, key)
  if (!edit.submitted) return { type: 'ui', ui: { ...ui, other: edit.value } }
  if (question.multiSelect) return finish(edit.value, ui.ticked)
  if (edit.value.trim() !== '') return finish(edit.value, [])
  const highlighted = labels[ui.highlight]
  return finish('', highlighted !== undefined ? [highlighted] : [])
}

/** The current question of a request, its options, and what has been typed. */
export function QuestionPanel({ request, ui }: { request: QuestionRequest; ui: QuestionUi }): ReactNode {
  const question = request.questions[ui.index]
  if (!question) return null
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="magenta" paddingX={1}>
      <Text>
        <Text color="magenta">{`[${question.header}] `}</Text>
        <Text bold>{question.question}</Text>
        {request.questions.length > 1 ? (
          <Text dimColor>{`  (${ui.index + 1} of ${request.questions.length})`}</Text>
        ) : null}
      </Text>
      {question.options.map((option, index) => {
        const ticked = question.multiSelect ? (ui.ticked.includes(option.label) ? '[x] ' : '[ ] ') : ''
        return (
          <Text key={option.label} {...(index === ui.highlight ? { color: 'cyan' } : {})}>
            {index === ui.highlight ? '❯ ' : '  '}
            {`${index + 1}. ${ticked}${option.label}`}
            {option.description !== undefined ? <Text dimColor>{` — ${option.description}`}</Text> : null}
          </Text>
        )
      })}
      {question.freeText === false ? null : (
        <Text>
          <Text dimColor>Or type your own answer: </Text>
          {ui.other}
          <Text inverse> </Text>
        </Text>
      )}
      <Text dimColor>
        {question.multiSelect ? 'Space or a digit ticks, Enter confirms' : 'A digit or Enter chooses'}, Esc
        dismisses
      </Text>
    </Box>
  )
}
