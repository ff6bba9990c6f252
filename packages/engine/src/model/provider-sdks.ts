/**
 * The provider SDKs the engine drives. They are optional peer dependencies: an embedder installs the
 * one (or ones) for the providers it uses, so an app that talks only to Anthropic does not carry
 * OpenAI's SDK. The versions are the ones the adapters are built and tested against; the packaging
 * test checks that they match package.json's `peerDependencies`.
 */
export const PROVIDER_SDKS = {
  Anthropic: { packageName: '@anthropic-ai/sdk', version: '1.14.0' },
  OpenAI: { packageName: 'openai', version: '6.49.0' },
  Gemini: { packageName: '@google/genai', version: '2.32.0' },
} as const

/** An SDK the engine can load: its name in messages and the npm package behind it. */
export type ProviderSdk = keyof typeof PROVIDER_SDKS
