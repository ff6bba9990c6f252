/**
 * The settings shape: one schema, keys in TOML's snake_case, each default written beside its key.
 * A settings file is a {@link SettingsLayer} (every key optional); layering defaults, user, project,
 * local and environment gives {@link Settings}, where every key with a default is present.
 */

import { PermissionModeSchema } from './permission.js'
import {
  anyObject,
  arr,
  bool,
  described,
  enums,
  type Infer,
  int,
  num,
  obj,
  type Resolved,
  record,
  str,
  withDefault,
} from './schema/builder.js'
import { defaultsOf } from './schema/defaults.js'

const strings = (description?: string) =>
  withDefault(arr(str(), description === undefined ? {} : { description }), [])
const dollarsPerMillion = () => num({ minimum: 0, description: 'USD per million tokens.' })

const ModelSection = obj(
  {},
  {
    name: str({ minLength: 1, description: 'Main model id; the catalog default when absent.' }),
    fast: str({ minLength: 1, description: 'Fast model (compaction summaries, WebFetch extraction).' }),
    review: str({ minLength: 1, description: 'Model for the review role.' }),
    fallback: str({
      minLength: 1,
      description:
        "Model a turn switches to when the main model is still overloaded (HTTP 529) after its retries (Claude Code's --fallback-model).",
    }),
    provider: enums(['anthropic', 'openai', 'openrouter', 'openai_chat', 'gemini'], {
      description: 'Which provider serves the model; inferred from the catalog when absent.',
    }),
    context_window: int({ minimum: 1, description: 'Overrides the catalog; unknown models get 128000.' }),
    max_output_tokens: int({ minimum: 1, description: 'Cap on output tokens per request.' }),
    effort: enums(['low', 'medium', 'high', 'max'], {
      description: 'Reasoning effort on models that offer it.',
    }),
    thinking: bool({ description: 'Extended thinking / reasoning on models that offer it.' }),
    thinking_budget_tokens: int({ minimum: 1024, description: 'Thinking budget when thinking is on.' }),
    prices: obj(
      {},
      {
        input: dollarsPerMillion(),
        output: dollarsPerMillion(),
        cache_read: dollarsPerMillion(),
        cache_write: dollarsPerMillion(),
      },
      { description: 'Overrides the catalog prices (USD per million tokens).' },
    ),
  },
)

const providerSection = (apiKeyEnv: string, cacheControl: boolean) =>
  withDefault(
    obj(
      {},
      {
        base_url: str({ minLength: 1, description: 'Any compatible server (vLLM, llama.cpp, Ollama, …).' }),
        api_key_env: withDefault(
          str({ minLength: 1, description: 'Environment variable holding the key.' }),
          apiKeyEnv,
        ),
        cache_control: withDefault(bool({ description: 'Send prompt-cache breakpoints.' }), cacheControl),
      },
    ),
    {},
  )

/**
 * Gemini caches repeated prefixes implicitly; `cache_control` adds explicit context caching of the
 * stable prefix (off by default: cache storage is billed per hour).
 */
const geminiSection = () =>
  withDefault(
    obj(
      {},
      {
        base_url: str({
          minLength: 1,
          description: 'A Gemini-API-compatible server or proxy (the SDK appends /v1beta/models/…).',
        }),
        api_key_env: withDefault(
          str({
            minLength: 1,
            description:
              'Environment variable holding the key (GOOGLE_API_KEY is tried after GEMINI_API_KEY).',
          }),
          'GEMINI_API_KEY',
        ),
        cache_control: withDefault(
          bool({
            description:
              'Explicit context caching: the system prompt, tools and earlier history are cached (caches.create) and named by later requests.',
          }),
          false,
        ),
        cache_ttl_seconds: withDefault(
          int({
            minimum: 60,
            maximum: 86_400,
            description: 'How long each explicit cache lives, in seconds.',
          }),
          300,
        ),
      },
    ),
    {},
  )

const ProviderSection = obj(
  {},
  {
    anthropic: providerSection('ANTHROPIC_API_KEY', true),
    openai: providerSection('OPENAI_API_KEY', false),
    openrouter: providerSection('OPENROUTER_API_KEY', true),
    openai_chat: providerSection('OPENAI_API_KEY', false),
    gemini: geminiSection(),
  },
)

const PermissionsSection = obj(
  {},
  {
    mode: withDefault(
      described('Starting mode; `bypassPermissions` is accepted as `bypass`.', PermissionModeSchema),
      'default',
    ),
    allow: strings('Rules that allow without asking, e.g. `Bash(npm test:*)`.'),
    deny: strings('Rules that refuse; they win over everything, even bypass.'),
    ask: strings('Rules that always ask.'),
    additional_directories: strings('Folders outside the project the agent may work in.'),
    auto_allow_read_only_bash: withDefault(
      bool({ description: 'Run shell commands proven read-only without asking.' }),
      true,
    ),
  },
)

const AgentsSection = obj(
  {},
  {
    max_concurrent: withDefault(int({ minimum: 1, description: 'Concurrency slots per session.' }), 6),
    max_depth: withDefault(int({ minimum: 0, description: '0 disables subagents.' }), 2),
    max_turns: withDefault(int({ minimum: 1, description: 'Model rounds per run.' }), 200),
    session_cost_cap_usd: withDefault(num({ minimum: 0, description: '0 means off.' }), 0),
  },
)

const ContextSection = obj(
  {},
  {
    compact_at_percent: withDefault(
      int({
        minimum: 50,
        maximum: 99,
        description: 'Summarize older history above this share of the window.',
      }),
      92,
    ),
    keep_recent_tool_results: withDefault(
      int({ minimum: 0, description: 'Newest tool results never cleared under pressure.' }),
      8,
    ),
    repo_map: withDefault(bool({ description: 'Put the tree-sitter repository map in the prompt.' }), true),
    repo_map_chars: withDefault(int({ minimum: 0, description: 'Size cap of the repository map.' }), 6000),
  },
)

const CheckpointsSection = obj(
  {},
  {
    max_files: withDefault(
      int({
        minimum: 0,
        description:
          'Files one checkpoint may capture (new, changed or removed since the last); beyond it the checkpoint is skipped with a notice.',
      }),
      10000,
    ),
    max_mb: withDefault(
      int({
        minimum: 0,
        description:
          'MiB one checkpoint may copy into the shadow repository; beyond it the checkpoint is skipped.',
      }),
      100,
    ),
  },
)

/**
 * Hook events a settings file may configure (`[[hooks.<Event>]]`): Claude Code's whole set (2.1.332),
 * in its order. Which of them a session fires, and when, is the engine's hook event table.
 */
export const HOOK_EVENTS = [
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'PostToolBatch',
  'PermissionDenied',
  'Notification',
  'UserPromptSubmit',
  'UserPromptExpansion',
  'SessionStart',
  'SessionEnd',
  'Stop',
  'StopFailure',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'PreModelSwitch',
  'PostModelSwitch',
  'PermissionRequest',
  'Setup',
  'TeammateIdle',
  'TaskCreated',
  'TaskCompleted',
  'Elicitation',
  'ElicitationResult',
  'ConfigChange',
  'WorktreeCreate',
  'WorktreeRemove',
  'InstructionsLoaded',
  'CwdChanged',
  'FileChanged',
  'DirectoryAdded',
  'MessageDisplay',
  'PreSkillShellCommand',
] as const

/** The timeout of a hook command when `timeout_secs` is absent (Claude Code's: ten minutes). */
export const DEFAULT_HOOK_TIMEOUT_SECS = 600

/** The timeout of a UserPromptSubmit hook when `timeout_secs` is absent: the user is waiting. */
export const USER_PROMPT_HOOK_TIMEOUT_SECS = 30

/** Schema of {@link HookEntry}. */
export const HookEntrySchema = obj(
  { command: str({ minLength: 1 }) },
  {
    matcher: str({
      description:
        'What the event is matched on (tool name, agent type, trigger, source…): `*` or absent matches all; names joined by `|` (and, on most events, names with `-`, spaces or `,` lists) exact; anything else a regular expression. Ignored on events with nothing to match (UserPromptSubmit, Stop…).',
    }),
    if: str({
      minLength: 1,
      description:
        'Tool events only: a permission rule (`Bash(git *)`) the call must match for the hook to run.',
    }),
    timeout_secs: int({
      minimum: 1,
      description: `Seconds before the hook is killed; absent: ${DEFAULT_HOOK_TIMEOUT_SECS} (UserPromptSubmit: ${USER_PROMPT_HOOK_TIMEOUT_SECS}).`,
    }),
  },
)
/** One configured hook command. */
export type HookEntry = Infer<typeof HookEntrySchema>

const HooksSection = obj(
  {},
  Object.fromEntries(HOOK_EVENTS.map((event) => [event, arr(HookEntrySchema)])) as {
    [E in (typeof HOOK_EVENTS)[number]]: ReturnType<typeof arr<typeof HookEntrySchema>>
  },
)

/** Schema of {@link McpServerSettings}. */
export const McpServerSettingsSchema = obj(
  {},
  {
    type: enums(['stdio', 'http', 'sse'], { description: 'Inferred: `command` means stdio, `url` http.' }),
    command: str({ minLength: 1 }),
    args: arr(str()),
    env: record(str()),
    cwd: str(),
    url: str({ minLength: 1 }),
    headers: record(str()),
    enabled: bool(),
    timeout_ms: int({ minimum: 1 }),
  },
)
/** One MCP server (`[mcp.servers.<name>]`). */
export type McpServerSettings = Infer<typeof McpServerSettingsSchema>

const LspServer = obj(
  { command: str({ minLength: 1 }) },
  {
    args: arr(str()),
    extensions: arr(str({ description: 'File extensions without the dot.' })),
    initialization_options: anyObject({ description: "Sent as the server's `initializationOptions`." }),
  },
)

const ShellSection = obj(
  {},
  {
    sandbox: withDefault(
      obj(
        {},
        {
          enabled: withDefault(
            bool({
              description:
                'Run every agent command (approved ones too) under bubblewrap/seatbelt; auto-allowed ones run confined whenever a backend exists.',
            }),
            false,
          ),
          allow_network: withDefault(
            bool({ description: 'Let sandboxed commands reach the network.' }),
            false,
          ),
          auto_allow: withDefault(
            bool({
              description:
                'Allow commands whose writes stay in bounds without asking; they run confined (needs a backend).',
            }),
            false,
          ),
          read_paths: strings(
            'Folders or files shown read-only inside the confined view (`~/` is the home), e.g. `~/.rustup`, `~/.pyenv`; the view otherwise holds the system folders, the project and an empty home.',
          ),
          write_paths: strings(
            'Folders confined commands may write (read-only for read-only commands), e.g. tool caches `~/.npm`, `~/.cargo/registry`, `~/.cache/pip`, `~/go/pkg/mod`.',
          ),
          excluded_commands: strings(
            'Commands an allow rule covers that run outside the sandbox, as Bash rule patterns (`git push:*`, `gh *`, `npm publish`): for what needs the network, ssh keys or a credential helper. Every other rule-allowed command runs confined in write mode whenever a backend exists.',
          ),
        },
      ),
      {},
    ),
    env: withDefault(
      obj(
        {},
        {
          inherit: withDefault(
            enums(['core', 'all', 'none'], {
              description:
                'What commands inherit: `core` a named allowlist (PATH, HOME, locale, temp, toolchain homes, proxies) plus `allow`; `all` everything but secret-looking names; `none` only `set`.',
            }),
            'core',
          ),
          allow: strings('Variable names or globs commands get in addition to the core allowlist.'),
          ignore_default_excludes: withDefault(
            bool({ description: 'With `inherit = "all"`, keep *KEY*/*SECRET*/*TOKEN* variables too.' }),
            false,
          ),
          exclude: strings('Glob patterns of variable names to drop.'),
          include_only: strings('When not empty, only variables matching these globs pass.'),
          set: withDefault(record(str(), { description: 'Variables set for every command.' }), {}),
        },
      ),
      {},
    ),
    default_timeout_ms: withDefault(
      int({ minimum: 1, description: 'Bash timeout when the call sets none.' }),
      120_000,
    ),
    max_timeout_ms: withDefault(
      int({ minimum: 1, description: 'Largest timeout a Bash call may ask for.' }),
      600_000,
    ),
  },
)

const WebSection = obj(
  {},
  {
    allowed_private_hosts: strings('Private or loopback hosts WebFetch may reach.'),
    search: withDefault(
      obj(
        {},
        {
          backend: str({
            minLength: 1,
            description: 'WebSearch backend name; WebSearch is off without one.',
          }),
          api_key_env: str({ minLength: 1 }),
          base_url: str(),
        },
      ),
      {},
    ),
  },
)

/** Schema of {@link CheckSettings}. */
export const CheckSettingsSchema = obj(
  { id: str({ minLength: 1 }), command: str({ minLength: 1 }) },
  {
    kind: enums(['test', 'build', 'typecheck', 'lint', 'other']),
    cwd: str(),
    timeout_secs: int({ minimum: 1 }),
  },
)
/** A configured check (`[[verification.checks]]`). */
export type CheckSettings = Infer<typeof CheckSettingsSchema>

const VerificationSection = obj(
  {},
  {
    mode: withDefault(
      enums(['off', 'report', 'auto', 'strict'], {
        description:
          'off; report (badge only); auto (run checks at the stop boundary); strict (until verified).',
      }),
      'report',
    ),
    max_continuations: withDefault(
      int({ minimum: 0, description: 'Bound on auto/strict continuations per turn.' }),
      3,
    ),
    checks: withDefault(arr(CheckSettingsSchema), []),
  },
)

/** Schema of a settings file or layer; every key optional. */
export const SettingsSchema = obj(
  {},
  {
    model: withDefault(ModelSection, {}),
    provider: withDefault(ProviderSection, {}),
    permissions: withDefault(PermissionsSection, {}),
    agents: withDefault(AgentsSection, {}),
    context: withDefault(ContextSection, {}),
    checkpoints: withDefault(CheckpointsSection, {}),
    hooks: withDefault(HooksSection, {}),
    mcp: withDefault(
      obj(
        {},
        { servers: withDefault(record(McpServerSettingsSchema, { description: 'Servers by name.' }), {}) },
      ),
      {},
    ),
    plugins: withDefault(
      obj(
        {},
        {
          enabled: withDefault(
            record(bool(), {
              description:
                "Plugins by `<plugin>@<marketplace>`: true enables an installed plugin (Claude Code's `enabledPlugins`).",
            }),
            {},
          ),
          marketplaces: withDefault(
            record(
              obj(
                {
                  source: str({
                    minLength: 1,
                    description: 'A directory, a git URL or owner/repo (GitHub).',
                  }),
                },
                {
                  ref: str({
                    minLength: 1,
                    description:
                      'A git source: the branch or tag to clone, or a full commit id (40 or 64 hex digits) that holds it there.',
                  }),
                  path: str({
                    minLength: 1,
                    description:
                      'A git source: marketplace.json inside the repository (default .claude-plugin/marketplace.json).',
                  }),
                  sparse_paths: arr(str({ minLength: 1 }), {
                    description:
                      'A git source: the only folders checked out (git sparse-checkout, cone mode).',
                  }),
                },
              ),
              { description: "Marketplaces by name (Claude Code's `extraKnownMarketplaces`)." },
            ),
            {},
          ),
        },
      ),
      {},
    ),
    lsp: withDefault(
      obj(
        {},
        {
          enabled: withDefault(bool({ description: 'Start language servers lazily per file type.' }), true),
          diagnostics_wait_ms: withDefault(
            int({
              minimum: 0,
              description:
                'How long a write of a covered file waits for fresh diagnostics to append error-level ones to its result (0: never wait).',
            }),
            3_000,
          ),
          servers: withDefault(
            record(LspServer, { description: 'Extra or overriding servers by name.' }),
            {},
          ),
        },
      ),
      {},
    ),
    shell: withDefault(ShellSection, {}),
    input: withDefault(
      obj(
        {},
        {
          max_line_bytes: withDefault(
            int({
              minimum: 1024,
              description:
                'Longest line `serve --stdio` and `exec --input-format stream-json` accept; a longer one is refused with an error.',
            }),
            16 * 1024 * 1024,
          ),
        },
      ),
      {},
    ),
    web: withDefault(WebSection, {}),
    verification: withDefault(VerificationSection, {}),
    compat: withDefault(
      obj(
        {},
        {
          claude: withDefault(
            bool({ description: 'Read .claude/ agents, commands, CLAUDE.md, .mcp.json.' }),
            true,
          ),
        },
      ),
      {},
    ),
    experimental: withDefault(
      record(enums(['off', 'shadow', 'on']), { description: 'decisions_* feature switches.' }),
      {},
    ),
    decisions: withDefault(
      obj(
        {},
        {
          timeout_ms: withDefault(
            int({ minimum: 1, description: 'Per-seam advice deadline (doubled plus 50 ms).' }),
            1500,
          ),
          model: str({ minLength: 1, description: 'Model of the decision sidecar.' }),
        },
      ),
      {},
    ),
    journal: withDefault(
      obj({}, { fsync: withDefault(bool({ description: 'fsync log.jsonl after each turn.' }), false) }),
      {},
    ),
  },
)

/** One settings file or layer as written: every key optional. */
export type SettingsLayer = Infer<typeof SettingsSchema>
/** Effective settings after layering onto the defaults: every key with a default is present. */
export type Settings = Resolved<typeof SettingsSchema>

/** Every default, derived from the schema (model and provider choices come from the catalog). */
export const DEFAULT_SETTINGS: Settings = deepFreeze(defaultsOf(SettingsSchema) as Settings)

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}
