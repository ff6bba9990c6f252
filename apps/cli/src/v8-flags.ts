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
  ownProcess = true
  setFlagsFromString('--liftoff-only')
}

/** Set by the binary ({@link setV8Flags}): commands run in a test's process leave its flags alone. */
let ownProcess = false
let youngGenerationSettled = false

/**
 * Keeps V8's young generation at the size start-up grew it to (issue 40, peak RSS of long runs).
 * Each round of a long session allocates a burst (the request body, the streamed answer, the tool
 * result), and V8 answered every such burst by doubling the young generation up to its ceiling: a
 * 100-round `exec` peaked at 140–150 MB, 40 MB of it young-generation space, while what it keeps is
 * small. Called once start-up is over (the first answer is in), so start-up keeps its own growth,
 * which saves scavenges while modules load. The size is fixed once the heap exists (node's
 * `--max-semi-space-size` works only on its command line); the growth factor is read at each
 * growth, so 1 stops it. Measured CPU of the 100-round session: unchanged (2.39 s either way).
 */
export function settleYoungGeneration(): void {
  if (!ownProcess || youngGenerationSettled) return
  youngGenerationSettled = true
  setFlagsFromString('--semi-space-growth-factor=1')
}
