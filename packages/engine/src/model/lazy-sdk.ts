/**
 * Lazy SDK construction shared by the adapters: the SDK module is imported on first use (CLI startup
 * does not pay for it), and a failure to load is a typed, non-retried error rather than a cached
 * rejection. An SDK that is not installed (they are optional peer dependencies) gets a message with
 * the exact install command.
 */
import { TypedModelError } from './errors.js'
import { PROVIDER_SDKS, type ProviderSdk } from './provider-sdks.js'

/** Loads an SDK client once; `load` rejects with a TypedModelError when the SDK cannot be loaded. */
export function lazySdk<T>(
  create: () => Promise<T>,
  sdk: ProviderSdk,
): { load: () => Promise<T>; warm: () => Promise<void> } {
  let pending: Promise<T> | undefined
  const load = (): Promise<T> => {
    pending ??= create().catch((error: unknown) => {
      pending = undefined
      throw error instanceof TypedModelError ? error : sdkLoadError(sdk)(error)
    })
    return pending
  }
  return {
    load,
    warm: async () => {
      await load().catch(() => undefined)
      // Node loads its fetch stack (undici, 40–70 ms of CPU) on the first call of fetch or the first
      // read of Headers, Request or Response (Node 20's `fetch` global is a stub, so reading it loads
      // nothing); the SDKs build Headers for every request, so load it now, while the session is
      // still opening (its journal syncs and file reads leave the thread idle), not on the first request.
      setImmediate(() => void globalThis.Headers)
    },
  }
}

/**
 * The rejection handler for an SDK's `import()`: `import('openai').catch(sdkLoadError('OpenAI'))`.
 * Written at the import itself because bundlers (esbuild) leave an `import()` with a `.catch` to run
 * time when the package is not installed, so an app without this optional SDK still bundles.
 */
export function sdkLoadError(sdk: ProviderSdk): (error: unknown) => never {
  return (error) => {
    throw new TypedModelError({ kind: 'invalid_request', message: loadFailureMessage(sdk, error) })
  }
}

/** What to tell the user when an SDK does not load: the install command when it is missing. */
export function loadFailureMessage(sdk: ProviderSdk, error: unknown): string {
  const { packageName, version } = PROVIDER_SDKS[sdk]
  if (isMissingPackage(error, packageName)) {
    return `The ${sdk} SDK is not installed. The engine loads provider SDKs as optional peer dependencies: run \`npm install ${packageName}@${version}\` in your app.`
  }
  const reason = error instanceof Error ? error.message : String(error)
  return `Could not load the ${sdk} SDK (${reason}). Reinstall ${packageName}@${version} or check the provider settings.`
}

function isMissingPackage(error: unknown, packageName: string): boolean {
  if (!(error instanceof Error)) return false
  const code = (error as { code?: unknown }).code
  return (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && error.message.includes(packageName)
  )
}
