import { CommandSchema } from '../commands.js'
import { EventEnvelopeSchema } from '../envelope.js'
import { EngineEventSchema } from '../events.js'
import { LogRecordSchema } from '../log-records.js'
import { PermissionCheckRequestSchema } from '../permission-check.js'
import type { AnySchema } from '../schema/builder.js'
import { SettingsSchema } from '../settings.js'

/**
 * Everything the parsers validate, grouped by the precompiled file that holds it: unions are
 * validated per branch (`<prefix>_<tag>`), single schemas under their own name. A `split` group is
 * precompiled one branch per file (`<file>.<tag>`), so a session's first command unpacks and
 * compiles `submit`'s validator alone, not every command's (issue 17).
 */
export const VALIDATED = {
  commands: { unions: [{ prefix: 'command', union: CommandSchema }], single: {}, split: true },
  events: {
    unions: [{ prefix: 'event', union: EngineEventSchema }],
    single: { envelope: EventEnvelopeSchema },
  },
  log: { unions: [{ prefix: 'record', union: LogRecordSchema }], single: {} },
  settings: { unions: [], single: { settings: SettingsSchema } },
  permissionCheck: { unions: [], single: { permissionCheckRequest: PermissionCheckRequestSchema } },
} as const satisfies Record<
  string,
  {
    unions: readonly { prefix: string; union: AnySchema }[]
    single: Readonly<Record<string, AnySchema>>
    split?: boolean
  }
>
