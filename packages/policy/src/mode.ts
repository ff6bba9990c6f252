import type { PermissionMode } from '@z-engine/protocol'

/** Reads a mode from outside (`bypassPermissions` is `bypass`); undefined for an unknown name. */
export function normalizeMode(value: unknown): PermissionMode | undefined {
  switch (value) {
    case 'default':
    case 'acceptEdits':
    case 'plan':
    case 'bypass':
      return value
    case 'bypassPermissions':
      return 'bypass'
    default:
      return undefined
  }
}
