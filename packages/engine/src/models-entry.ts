/**
 * @z-engine/engine/models: model references, the catalog's limits and prices, a provider's settings, and the Responses spelling of a tool choice. For the repository's own apps (the CLI, the gateway); unstable: names
 * and shapes may change between minor versions. An embedder uses `@z-engine/engine`.
 */

/** Readers of the model settings: the model reference in effect, and a provider's settings. */
export { modelRefFromSettings, providerSettingsOf } from './assembly/model-port.js'
/** A model's limits and prices: the catalog's, with settings overrides. */
export { resolveModelInfo } from './model/catalog.js'
/** The prompt tokens a usage counts (input and cache). */
export { promptTokensOf } from './model/cost.js'
/** Parses a model reference (`provider:model`). */
export { parseModelRef } from './model/model-ref.js'
/** The Responses spelling of a tool choice (one mapping for engine and gateway). */
export { responsesToolChoice } from './model/tool-choice.js'
