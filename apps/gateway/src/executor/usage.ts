/** Token usage summed over a response's upstream rounds (the client sees one response). */
import { isObject, type JsonObject } from '../wire/json.js'

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0
}

/** Adds one round's usage to the running total (null until a round reports usage). */
export function addUsage(total: JsonObject | null, round: JsonObject | null): JsonObject | null {
  if (round === null) return total
  // A JSON copy, not structuredClone (V8's serializer): this runs once per response on the hot path.
  if (total === null) return JSON.parse(JSON.stringify(round)) as JsonObject
  const inDetails = isObject(total.input_tokens_details) ? total.input_tokens_details : {}
  const outDetails = isObject(total.output_tokens_details) ? total.output_tokens_details : {}
  const roundIn = isObject(round.input_tokens_details) ? round.input_tokens_details : {}
  const roundOut = isObject(round.output_tokens_details) ? round.output_tokens_details : {}
  return {
    ...total,
    input_tokens: num(total.input_tokens) + num(round.input_tokens),
    output_tokens: num(total.output_tokens) + num(round.output_tokens),
    total_tokens: num(total.total_tokens) + num(round.total_tokens),
    input_tokens_details: {
      ...inDetails,
      cached_tokens: num(inDetails.cached_tokens) + num(roundIn.cached_tokens),
    },
    output_tokens_details: {
      ...outDetails,
      reasoning_tokens: num(outDetails.reasoning_tokens) + num(roundOut.reasoning_tokens),
    },
  }
}
