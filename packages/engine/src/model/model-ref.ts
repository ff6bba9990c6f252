/**
 * Model references: `<provider>/<model-id>` (`anthropic/claude-sonnet-4-5`, `openai/gpt-5` for the
 * Responses API, `openai-chat/qwen3-coder` for any Chat Completions server, `openrouter/qwen/qwen3-coder`,
 * `gemini/gemini-2.5-pro`),
 * a bare id the catalog knows (`claude-sonnet-4-5` → anthropic), a Claude Code alias (`opus`, model/aliases.ts), or `scripted:<file>` for the
 * scripted client.
 */
import { closeMatches } from '../util/close-matches.js'
import { modelAliasNames, resolveModelAlias } from './aliases.js'
import { catalogModelIds, findModel } from './catalog.js'
import type { ProviderName } from './types.js'

/** A parsed model reference. For `scripted`, `model` is the script file path. */
export interface ModelRef {
  provider: ProviderName
  model: string
}

/** The result of parsing a model reference; the error says how to write a valid one. */
export type ParseModelRefResult = { ok: true; ref: ModelRef } | { ok: false; error: string }

const PROVIDERS: readonly ProviderName[] = ['anthropic', 'openai', 'openai-chat', 'openrouter', 'gemini']

/** Parses a model reference. Never throws. */
export function parseModelRef(text: string): ParseModelRefResult {
  const ref = text.trim()
  if (ref === '') {
    return {
      ok: false,
      error: 'The model is empty. Write it as <provider>/<model-id>, e.g. anthropic/claude-sonnet-4-5.',
    }
  }
  if (ref.startsWith('scripted:')) {
    const file = ref.slice('scripted:'.length)
    return file === ''
      ? { ok: false, error: 'scripted: needs a script file, e.g. scripted:./responses.jsonl.' }
      : { ok: true, ref: { provider: 'scripted', model: file } }
  }
  const alias = resolveModelAlias(ref)
  if (alias !== undefined) return { ok: true, ref: { provider: 'anthropic', model: alias } }
  const slash = ref.indexOf('/')
  if (slash > 0) {
    const provider = ref.slice(0, slash) as ProviderName
    const model = ref.slice(slash + 1)
    if (PROVIDERS.includes(provider)) {
      if (model === '')
        return { ok: false, error: `The model ref "${ref}" has no model id after "${provider}/".` }
      // `anthropic/opus` (the SDK entry prefixes bare names) is the alias's model too.
      const aliased = provider === 'anthropic' ? resolveModelAlias(model) : undefined
      return { ok: true, ref: { provider, model: aliased ?? model } }
    }
  }
  const known = findModel(ref)
  if (known && slash < 0) return { ok: true, ref: { provider: known.provider, model: ref } }
  if (slash > 0)
    return {
      ok: false,
      error: `Unknown model "${ref.slice(0, slash)}" is not a provider (use anthropic, openai, openai-chat, openrouter or gemini); for an OpenRouter model write openrouter/${ref}.`,
    }
  const [closest] = closeMatches(ref, [...catalogModelIds(), ...modelAliasNames()], 1)
  const guess = closest !== undefined ? ` Did you mean '${closest}'?` : ''
  return {
    ok: false,
    error: `Unknown model "${ref}" is not in the model catalog.${guess} For a model the catalog does not list, name its provider, e.g. openai-chat/${ref} for a compatible server (vLLM, llama.cpp, Ollama).`,
  }
}

/** Formats a reference back to text. */
export function formatModelRef(ref: ModelRef): string {
  return ref.provider === 'scripted' ? `scripted:${ref.model}` : `${ref.provider}/${ref.model}`
}
