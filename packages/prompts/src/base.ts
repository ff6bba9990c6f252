import base from './base.md'

/** The base system prompt: the first, cache-stable section of every main-agent request. */
export const BASE_PROMPT: string = base.trim()
