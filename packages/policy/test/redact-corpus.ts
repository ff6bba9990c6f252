/**
 * Secret shapes and look-alikes for the redaction tests and benchmark. Tokens are generated from a
 * fixed seed in each provider's documented shape, so no real credential is checked in.
 */

let seed = 0x2f6b1d3
function next(): number {
  // xorshift32: deterministic, good enough to spread characters.
  seed ^= seed << 13
  seed ^= seed >>> 17
  seed ^= seed << 5
  return (seed >>> 0) / 0x1_0000_0000
}

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const DIGITS = '0123456789'
const ALNUM = UPPER + LOWER + DIGITS
const B64 = `${ALNUM}+/`
const URLSAFE = `${ALNUM}-_`
const BASE32 = `${UPPER}234567`
const HEX = '0123456789abcdef'

/** `n` characters from `alphabet`, with at least one upper, lower and digit when it has them. */
export function pick(alphabet: string, n: number): string {
  let out = ''
  for (let i = 0; i < n; i += 1) out += alphabet[Math.floor(next() * alphabet.length)]
  if (alphabet.includes('A') && alphabet.includes('a') && alphabet.includes('0') && n >= 3) {
    out = `A${out.slice(1, -2)}a7`
  }
  return out
}

/** One secret in context: `secret` must disappear from `text`, and a `[REDACTED:kind:` must appear. */
export interface Hit {
  kind: string
  secret: string
  text: string
}

const pem = (label: string) =>
  `-----BEGIN ${label}-----\n${pick(B64, 64)}\n${pick(B64, 64)}\n${pick(B64, 20)}==\n-----END ${label}-----`

const ghp = `ghp_${pick(ALNUM, 36)}`
const gho = `gho_${pick(ALNUM, 36)}`
const ghs = `ghs_${pick(ALNUM, 36)}`
const githubPat = `github_pat_${pick(ALNUM, 22)}_${pick(ALNUM, 59)}`
const glpat = `glpat-${pick(`${ALNUM}_-`, 20)}`
const npmToken = `npm_${pick(ALNUM, 36)}`
const slackBot = `xoxb-${pick(DIGITS, 12)}-${pick(DIGITS, 13)}-${pick(ALNUM, 24)}`
const slackUser = `xoxp-${pick(DIGITS, 12)}-${pick(DIGITS, 12)}-${pick(DIGITS, 13)}-${pick(HEX, 32)}`
const stripeLive = `sk_live_${pick(ALNUM, 24)}`
const stripeRestricted = `rk_live_${pick(ALNUM, 99)}`
const openaiLegacy = `sk-${pick(ALNUM, 20)}T3BlbkFJ${pick(ALNUM, 20)}`
const openaiProj = `sk-proj-${pick(URLSAFE, 156)}`
const anthropic = `sk-ant-api03-${pick(URLSAFE, 93)}AA`
const awsId = `AKIA${pick(BASE32, 16)}`
const awsTempId = `ASIA${pick(BASE32, 16)}`
const awsSecret = pick(`${ALNUM}/+`, 40)
const azureAccountKey = `${pick(B64, 86)}==`
const azureClientSecret = `${pick(ALNUM, 3)}8Q~${pick(`${ALNUM}_.~-`, 34)}`
const jwt = `eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ${pick(URLSAFE, 60)}.${pick(URLSAFE, 43)}`
const gcpKeyId = pick(HEX, 40)
const dbPassword = `${pick(ALNUM, 14)}`
const envSecret = `${pick(ALNUM, 32)}`

/** Real token shapes in the contexts tools print them in. */
export const HITS: readonly Hit[] = [
  { kind: 'private-key', secret: pem('RSA PRIVATE KEY'), text: '' },
  { kind: 'private-key', secret: pem('OPENSSH PRIVATE KEY'), text: '' },
  { kind: 'private-key', secret: pem('PRIVATE KEY'), text: '' },
  { kind: 'private-key', secret: pem('EC PRIVATE KEY'), text: '' },
  { kind: 'github-token', secret: ghp, text: `remote: https://x-access-token:${ghp}@github.com/o/r.git` },
  { kind: 'github-token', secret: gho, text: `oauth_token: ${gho}` },
  { kind: 'github-token', secret: ghs, text: `Authorization: token ${ghs}` },
  { kind: 'github-token', secret: githubPat, text: `gh auth login --with-token <<< ${githubPat}` },
  {
    kind: 'gitlab-token',
    secret: glpat,
    text: `curl --header "PRIVATE-TOKEN: ${glpat}" https://gitlab.com/api`,
  },
  { kind: 'npm-token', secret: npmToken, text: `//registry.npmjs.org/:_authToken=${npmToken}` },
  { kind: 'slack-token', secret: slackBot, text: `SLACK_BOT=${slackBot}` },
  { kind: 'slack-token', secret: slackUser, text: `token ${slackUser} ok` },
  { kind: 'stripe-key', secret: stripeLive, text: `Stripe.api_key = "${stripeLive}"` },
  { kind: 'stripe-key', secret: stripeRestricted, text: `key: ${stripeRestricted}` },
  { kind: 'openai-key', secret: openaiLegacy, text: `openai.api_key = '${openaiLegacy}'` },
  { kind: 'openai-key', secret: openaiProj, text: `Bearer ${openaiProj}` },
  { kind: 'anthropic-key', secret: anthropic, text: `x-api-key: ${anthropic}` },
  { kind: 'aws-access-key-id', secret: awsId, text: `aws_access_key_id = ${awsId}` },
  { kind: 'aws-access-key-id', secret: awsTempId, text: `"AccessKeyId": "${awsTempId}",` },
  { kind: 'aws-secret-key', secret: awsSecret, text: `aws_secret_access_key = ${awsSecret}` },
  { kind: 'aws-secret-key', secret: awsSecret, text: `"SecretAccessKey": "${awsSecret}",` },
  {
    kind: 'azure-storage-key',
    secret: azureAccountKey,
    text: `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${azureAccountKey};EndpointSuffix=core.windows.net`,
  },
  { kind: 'azure-client-secret', secret: azureClientSecret, text: `client_secret ${azureClientSecret}` },
  { kind: 'jwt', secret: jwt, text: `Authorization: Bearer ${jwt}` },
  {
    kind: 'gcp-private-key-id',
    secret: gcpKeyId,
    text: `{"type": "service_account", "private_key_id": "${gcpKeyId}", "client_email": "a@p.iam.gserviceaccount.com"}`,
  },
  {
    kind: 'private-key',
    secret: `-----BEGIN PRIVATE KEY-----\\n${pick(B64, 64)}\\n${pick(B64, 30)}\\n-----END PRIVATE KEY-----\\n`,
    text: '',
  },
  {
    kind: 'password',
    secret: dbPassword,
    text: `DATABASE_URL=postgres://app:${dbPassword}@db.internal:5432/app`,
  },
  {
    kind: 'password',
    secret: dbPassword,
    text: `mongodb+srv://admin:${dbPassword}@cluster0.example.net/test`,
  },
  { kind: 'secret-assignment', secret: envSecret, text: `MY_SERVICE_TOKEN=${envSecret}` },
  { kind: 'secret-assignment', secret: envSecret, text: `  "client_secret": "${envSecret}",` },
].map((hit) => (hit.text === '' ? { ...hit, text: `key file:\n${hit.secret}\n(end)` } : hit))

/** Look-alikes that must pass through unchanged. */
export const NEAR_MISSES: readonly string[] = [
  'request id 123e4567-e89b-12d3-a456-426614174000 done',
  `commit ${pick(HEX, 40)}`,
  `tree ${pick(HEX, 40)} parent ${pick(HEX, 40)}`,
  `sha256:${pick(HEX, 64)}`,
  `integrity sha512-${pick(B64, 86)}==`,
  `data:image/png;base64,${pick(B64, 200)}=`,
  `const blob = "${pick(B64, 120)}"`,
  'We use sk-learn-compatible estimators; see the task-sk-ant notes.',
  'the sk- prefix marks OpenAI keys; sk-ant- marks Anthropic ones',
  'a token is a unit of text; tokenizer=bert-base-uncased-v2',
  'const token = await getToken(session)',
  'password = process.env.DB_PASSWORD',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell reference, not a template
  'export GITHUB_TOKEN=${GITHUB_TOKEN}',
  'postgres://app@db.internal:5432/app',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell reference, not a template
  'postgres://app:${PGPASSWORD}@db.internal/app',
  'see https://example.com:8443/path?q=1 for details',
  'http://localhost:3000/api/users/42',
  'ghp_ is the prefix of GitHub personal access tokens',
  'npm_config_cache=/home/u/.npm',
  'xoxb- tokens are bot tokens',
  'AKIA is the prefix of access key ids; AKIAEXAMPLE is too short',
  'eyJ is base64 for {"',
  'max_tokens: 4096',
  'PASSWORD_MIN_LENGTH=12',
  '-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUQ\n-----END CERTIFICATE-----',
  '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----',
  `docker pull node@sha256:${pick(HEX, 64)}`,
  'secret_santa_count: 3',
  'The access key must be rotated every 90 days.',
  '[REDACTED:github-token:1] stays as it is',
]
