/**
 * Gemini's thought signatures travel in the transcript as the `signature` of a thinking block,
 * prefixed so that no other adapter mistakes one for its own (Anthropic would reject it) and the
 * Gemini adapter never sends another provider's signature to Gemini.
 */

const PREFIX = 'gemini:'

/** The transcript form of a signature Gemini sent. */
export function toGeminiSignature(signature: string): string {
  return `${PREFIX}${signature}`
}

/** True for a signature that came from Gemini. */
export function isGeminiSignature(signature: string | undefined): signature is string {
  return signature?.startsWith(PREFIX) === true
}

/** The signature as Gemini sent it. */
export function fromGeminiSignature(signature: string): string {
  return signature.slice(PREFIX.length)
}
