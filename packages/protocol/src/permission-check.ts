import { PermissionModeSchema } from './permission.js'
import { arr, bool, described, type Infer, obj, str, unknown } from './schema/builder.js'

const absolutePath = (description: string) => str({ pattern: '^/', description })
const ruleList = arr(unknown({ description: 'A permission rule such as `Bash(npm test:*)`.' }))

/**
 * One line of `z-engine permissions check` (and `checkPermission`'s input): a tool call and the
 * settings facts a session would decide it with.
 */
export const PermissionCheckRequestSchema = described(
  'A tool call and the permission facts to decide it with, as `z-engine permissions check` reads per line.',
  obj(
    {
      tool: str({ minLength: 1, description: 'The tool name, such as `Bash`.' }),
      input: unknown({ description: "The tool's input object, as the model would send it." }),
      cwd: absolutePath("The agent's cwd; also the project root unless `projectRoot` is given."),
      home: absolutePath("The user's home folder (for `~` in rules and input)."),
    },
    {
      mode: PermissionModeSchema,
      rules: obj({}, { allow: ruleList, deny: ruleList, ask: ruleList }),
      projectRoot: absolutePath("The agent's root, when it is not the cwd."),
      additionalDirectories: arr(absolutePath('A folder outside the project the agent may use.')),
      sandbox: obj(
        {
          active: bool({ description: 'Shell commands run confined.' }),
          autoAllow: bool({ description: '`shell.sandbox.auto_allow`: in-bounds commands run unasked.' }),
        },
        {
          writableRoots: arr(absolutePath('A writable folder beyond the roots.')),
          excludedCommands: arr(str(), {
            description: '`shell.sandbox.excluded_commands`: rule-allowed commands that run unconfined.',
          }),
        },
      ),
      autoAllowReadOnlyBash: bool({ description: '`permissions.auto_allow_read_only_bash` (default true).' }),
      allowedPrivateHosts: arr(str(), { description: '`web.allowed_private_hosts`.' }),
    },
  ),
)
/** One `permissions check` request (after `bypassPermissions` is read as `bypass`). */
export type PermissionCheckRequest = Infer<typeof PermissionCheckRequestSchema>
