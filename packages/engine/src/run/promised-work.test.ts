import { describe, expect, it } from 'vitest'
import { promisedWorkSentence } from './promised-work.js'

describe('promisedWorkSentence', () => {
  it('finds an answer whose last sentence only announces the next action', () => {
    expect(promisedWorkSentence('I will now fix the bug.')).toBe('I will now fix the bug.')
    expect(promisedWorkSentence('The test fails in add().\n\nLet me run the tests:')).toBe(
      'Let me run the tests:',
    )
    expect(promisedWorkSentence('Found it. Now I’ll update the parser.')).toBe('Now I’ll update the parser.')
    expect(promisedWorkSentence("Okay, I'm going to rewrite the loop.")).toBe(
      "Okay, I'm going to rewrite the loop.",
    )
  })

  it('accepts finished answers, questions and closings that only look like promises', () => {
    expect(promisedWorkSentence('Fixed add(); the test passes.')).toBeUndefined()
    expect(promisedWorkSentence('I will fix it. Done: add() now adds.')).toBeUndefined()
    expect(promisedWorkSentence('Fixed it. Let me know if you want more tests.')).toBeUndefined()
    expect(promisedWorkSentence('Shall I also update the docs?')).toBeUndefined()
    expect(promisedWorkSentence('Should I fix it? I will wait for your answer?')).toBeUndefined()
    expect(promisedWorkSentence('I can fix it if you want.')).toBeUndefined()
    expect(promisedWorkSentence('I will fix it if you approve the plan.')).toBeUndefined()
    expect(promisedWorkSentence('Here is the plan. I will wait for your go-ahead.')).toBeUndefined()
  })
})
