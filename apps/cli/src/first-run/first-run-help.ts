/** The provider keys and base URLs a first run can set, in the order they are offered. */
export const PROVIDER_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'OPENAI_API_KEY',
  'OPENROUTER_API_KEY',
  'OPENAI_BASE_URL',
] as const

/**
 * What to print after "No API key …" when no provider is set up at all (a first run): which
 * variable to export for each provider, or the base URL of a local OpenAI-compatible server, and
 * where to check. Undefined when the error is another one or some provider is already configured.
 */
export function firstRunHelp(message: string, env: NodeJS.ProcessEnv): string | undefined {
  if (!message.startsWith('No API key')) return undefined
  if (PROVIDER_VARIABLES.some((name) => (env[name] ?? '').trim() !== '')) return undefined
  return [
    'No model provider is set up yet. Set one, then run this again:',
    '  export ANTHROPIC_API_KEY=sk-ant-…       Claude (the default model; --model sonnet|opus|haiku)',
    '  export OPENAI_API_KEY=sk-…              OpenAI (--model gpt-5, gpt-5-mini, o3, …)',
    '  export OPENROUTER_API_KEY=sk-or-…       OpenRouter (--model openrouter/<vendor>/<model>)',
    '  export OPENAI_BASE_URL=http://localhost:11434/v1   a local server (Ollama, vLLM, llama.cpp),',
    '                                          with --model openai-chat/<model>; no key needed',
    "Or set [model] and [provider.*] in ~/.config/z-engine/settings.toml. 'z-engine doctor' checks the setup.",
  ].join('\n')
}
