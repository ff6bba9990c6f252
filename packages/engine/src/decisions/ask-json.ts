import type { UseContext } from './use.js'

/** Longest text of one field a use sends the decision model (results and answers are cut to it). */
export const MAX_FACT_CHARS = 6_000

/** Cuts a fact to {@link MAX_FACT_CHARS}, saying so. */
export function clip(text: string, max = MAX_FACT_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n[… ${text.length - max} more characters]`
}

/**
 * Asks the decision model one question and returns its JSON object answer. The first line names the
 * feature (so traces and scripted models can tell uses apart). Anything but one JSON object throws,
 * which the hub records as a failure — and a failure abstains.
 */
export async function askJson(
  ctx: UseContext,
  feature: string,
  task: string,
  facts: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const prompt = [
    `Decision: ${feature}`,
    task,
    'Facts (JSON):',
    JSON.stringify(facts, null, 1),
    'Answer with one JSON object and nothing else.',
  ].join('\n\n')
  const reply = await ctx.complete(prompt)
  const start = reply.indexOf('{')
  const end = reply.lastIndexOf('}')
  if (start === -1 || end < start) throw new Error('the decision model did not answer with a JSON object')
  let parsed: unknown
  try {
    parsed = JSON.parse(reply.slice(start, end + 1))
  } catch {
    throw new Error('the decision model answered with malformed JSON')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('the decision model did not answer with a JSON object')
  return parsed as Record<string, unknown>
}

/** A non-empty string of at most `max` characters, else undefined. */
export function text(value: unknown, max = 500): string | undefined {
  if (typeof value !== 'string') return undefined
  const trimmed = value.trim()
  return trimmed === '' ? undefined : trimmed.slice(0, max)
}

/** The strings of an array (others dropped), at most `limit` of them. */
export function texts(value: unknown, limit: number, max = 500): string[] {
  if (!Array.isArray(value)) return []
  return value
    .flatMap((item) => {
      const one = text(item, max)
      return one === undefined ? [] : [one]
    })
    .slice(0, limit)
}
