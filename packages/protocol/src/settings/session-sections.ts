import { PermissionModeSchema } from '../permission.js'
import { bool, described, int, num, obj, withDefault } from '../schema/builder.js'
import { strings } from './fields.js'

/** Schema of the `[permissions]` table. */
export const PermissionsSection = obj(
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

/** Schema of the `[agents]` table. */
export const AgentsSection = obj(
  {},
  {
    max_concurrent: withDefault(int({ minimum: 1, description: 'Concurrency slots per session.' }), 6),
    max_depth: withDefault(int({ minimum: 0, description: '0 disables subagents.' }), 2),
    max_turns: withDefault(int({ minimum: 1, description: 'Model rounds per run.' }), 200),
    session_cost_cap_usd: withDefault(num({ minimum: 0, description: '0 means off.' }), 0),
  },
)

/** Schema of the `[context]` table. */
export const ContextSection = obj(
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

/** Schema of the `[checkpoints]` table. */
export const CheckpointsSection = obj(
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
