import { arr, bool, enums, type Infer, int, obj, record, str, withDefault } from '../schema/builder.js'
import { strings } from './fields.js'

/** Schema of the `[shell]` table. */
export const ShellSection = obj(
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
          confine_user_lines: withDefault(
            bool({
              description:
                "Decide the user's own `!` lines as the model's Bash calls are decided and confine them the same way (a proven read-only line read-only, a rule-allowed one in write mode); false runs them as approved commands (confined only with `enabled`).",
            }),
            true,
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

/** Schema of the `[web]` table. */
export const WebSection = obj(
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

/** Schema of the `[verification]` table. */
export const VerificationSection = obj(
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
