/**
 * An answer's closing sentence when it only announces what the model will do next ("I will now
 * fix the bug.", "Let me run the tests:"): with no tool call in the response nothing happened, so
 * the turn would end with the work undone (spec 004 "Recover and guard"). Undefined otherwise.
 */
export function promisedWorkSentence(answer: string): string | undefined {
  const paragraphs = answer.trim().split(/\n\s*\n/)
  const last = paragraphs.at(-1)?.trim() ?? ''
  // The last sentence of the last paragraph: a closing question or a summary does not count.
  const sentence =
    last
      .split(/(?<=[.!…])\s+(?=\S)/)
      .at(-1)
      ?.trim() ?? ''
  if (sentence === '' || sentence.endsWith('?')) return undefined
  if (!PROMISE.test(sentence) || NOT_A_PROMISE.test(sentence)) return undefined
  return sentence
}

// Openers that announce the next action, after optional "now", "next", "okay" and the like.
const PROMISE =
  /^(?:(?:ok(?:ay)?|alright|great|good|now|next|first|then|so)\b[,!.]?\s+)*(?:i will|i'll|i’ll|let me|i'm going to|i’m going to|i am going to|i need to|i'm now going to|i will now|i'll now)\s+\S/i
// Phrases that close a finished answer though they start like a promise.
const NOT_A_PROMISE =
  /\blet me know\b|\bif you\b|\bwould you\b|\bleave (?:it|that|this|the rest) to you\b|\bwait\b|\byour (?:go-ahead|approval|answer|confirmation|decision|input)\b/i
