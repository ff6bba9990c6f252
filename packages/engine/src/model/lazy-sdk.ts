/**
 * Lazy SDK construction shared by the adapters: the SDK module is imported on first use (CLI startup
 * does not pay for it), and a failure to load is a typed, non-retried error rather than a cached
 * rejection.
 */
import { TypedModelError } from './errors.js'

/** Loads an SDK client once; `load` rejects with a TypedModelError when the SDK cannot be loaded. */
export function lazySdk<T>(
  create: () => Promise<T>,
  label: string,
): { load: () => Promise<T>; warm: () => Promise<void> } {
  let pending: Promise<T> | undefined
  const load = (): Promise<T> => {
    pending ??= create().catch((error: unknown) => {
      pending = undefined
      throw new TypedModelError({
        kind: 'invalid_request',
        message: `Could not load the ${label} SDK (${error instanceof Error ? error.message : String(error)}). Reinstall z-engine or check the provider settings.`,
      })
    })
    return pending
  }
  return {
    load,
    warm: async () => {
      await load().catch(() => undefined)
    },
  }
}
