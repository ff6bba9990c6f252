import { type KnownSecret, MIN_KNOWN_SECRET_LENGTH } from './redactor.js'

/**
 * Variables that hold credentials of the engine itself or of services it commonly calls: their
 * values are redacted wherever they show up, and they never reach a child process. Settings add
 * the variables they name (`api_key_env`).
 */
export const ENGINE_CREDENTIAL_VARIABLES: readonly string[] = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'OPENAI_API_KEY',
  'OPENROUTER_API_KEY',
  'AZURE_OPENAI_API_KEY',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'MISTRAL_API_KEY',
  'GROQ_API_KEY',
  'DEEPSEEK_API_KEY',
  'XAI_API_KEY',
  'BRAVE_API_KEY',
  'TAVILY_API_KEY',
  'GITHUB_TOKEN',
  'GH_TOKEN',
  'GITLAB_TOKEN',
  'NPM_TOKEN',
  'NODE_AUTH_TOKEN',
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AZURE_CLIENT_SECRET',
  'HF_TOKEN',
]

/**
 * The known secrets among `env`: the values of {@link ENGINE_CREDENTIAL_VARIABLES} and of `extra`
 * names (settings' `api_key_env`), whichever are set and long enough to match safely.
 */
export function knownSecretsFrom(
  env: Readonly<Record<string, string | undefined>>,
  extra: readonly string[] = [],
): KnownSecret[] {
  const names = new Set([...ENGINE_CREDENTIAL_VARIABLES, ...extra])
  const found: KnownSecret[] = []
  for (const name of names) {
    const value = env[name]?.trim()
    if (value !== undefined && value.length >= MIN_KNOWN_SECRET_LENGTH) found.push({ name, value })
  }
  return found
}
