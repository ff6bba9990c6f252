import * as nodeModule from 'node:module'

/**
 * Turns on Node's on-disk compile cache (Node ≥ 22.1) before the CLI's code loads, so a second run
 * reads V8's compiled code instead of compiling the bundle again; Node 20 has no such cache and this
 * does nothing there. `NODE_COMPILE_CACHE` chooses the folder (default: the OS temp folder) and
 * `NODE_DISABLE_COMPILE_CACHE=1` turns it off, as Node documents.
 */
export function enableCompileCache(): void {
  const enable = (nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache
  try {
    enable?.()
  } catch {
    // A cache folder that cannot be written costs speed, never the run.
  }
}
