/**
 * The settings shape: one schema, keys in TOML's snake_case, each default written beside its key.
 * A settings file is a {@link SettingsLayer} (every key optional); layering defaults, user, project,
 * local and environment gives {@link Settings}, where every key with a default is present.
 */

import {
  arr,
  bool,
  enums,
  type Infer,
  int,
  obj,
  type Resolved,
  record,
  str,
  withDefault,
} from './schema/builder.js'
import { defaultsOf } from './schema/defaults.js'
import { HooksSection } from './settings/hooks.js'
import { ModelSection, ProviderSection } from './settings/model-sections.js'
import { LspServer, McpServerSettingsSchema } from './settings/server-sections.js'
import {
  AgentsSection,
  CheckpointsSection,
  ContextSection,
  PermissionsSection,
} from './settings/session-sections.js'
import { ShellSection, VerificationSection, WebSection } from './settings/tool-sections.js'

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
