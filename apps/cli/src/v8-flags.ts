import { setFlagsFromString } from 'node:v8'

/**
 * V8 flags the CLI sets for its own process before any work (issue 17, peak RSS). WebAssembly runs
 * on Liftoff, V8's baseline compiler, only: Node's fetch parses HTTP with llhttp compiled to wasm,
 * and tiering its one huge state-machine function up to TurboFan took 17–25 MB of compiler memory
 * for a few hundred ms in every `exec` (a quarter of its peak RSS) and ~150 ms of CPU, to speed up
 * parsing a handful of responses. The repository map's tree-sitter parsing runs on Liftoff as
 * well. Flags are process-wide, so the library packages never set them; only this binary does.
 */
export function setV8Flags(): void {
  setFlagsFromString('--liftoff-only')
}
