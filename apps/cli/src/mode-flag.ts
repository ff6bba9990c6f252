import { type PermissionMode, parsePermissionMode } from '@z-engine/protocol'
import { unknownWordError } from './cli-error.js'

/** The values `--permission-mode` accepts (`bypassPermissions` is an alias of `bypass`). */
export const MODE_FLAG_VALUES = ['default', 'acceptEdits', 'plan', 'bypass', 'bypassPermissions'] as const

/** Reads `--permission-mode`; absent stays absent, an unknown value is a usage error with the valid ones. */
export function parseModeFlag(value: string | undefined): PermissionMode | undefined {
  if (value === undefined) return undefined
  const mode = parsePermissionMode(value)
  if (mode === undefined) throw unknownWordError('--permission-mode value', value, MODE_FLAG_VALUES)
  return mode
}
