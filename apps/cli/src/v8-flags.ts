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
let phase: 'default' | 'starting' | 'started' = 'default'

/**
 * Flags for a headless run (`exec`, `-p`), which may be over in a second or last a hundred rounds
 * (issue 40). Until {@link startupOver}, no TurboFan, V8's optimizing compiler: its background
 * compiles of what start-up ran hot (settings, session assembly, the map's snapshot check) cost
 * ~30 ms of CPU per run and served code that mostly never ran again; baseline code (Sparkplug) runs
 * meanwhile. And the young generation stays at its initial size for the whole run: each round
 * allocates a burst (the request body, the streamed answer, the tool result), and V8 answered such
 * bursts by doubling the young generation up to its ceiling, so a 100-round `exec` peaked at
 * 140–150 MB though what it keeps is small (105–110 MB now; CPU of that session 2.3 s, was 2.4–2.5).
 * The size is fixed once the heap exists (node's `--max-semi-space-size` works only on its command
 * line), but the growth factor is read at each growth, so 1 stops it. Only flags V8 reads as it goes
 * are set after start (others, such as `--single-threaded-gc`, crash it).
 */
export function lightStartup(): void {
  if (!ownProcess || phase !== 'default') return
  phase = 'starting'
  setFlagsFromString('--no-turbofan')
  setFlagsFromString('--semi-space-growth-factor=1')
}

/** Start-up is over (the first answer is in): TurboFan back on for the rounds that follow. */
export function startupOver(): void {
  if (phase !== 'starting') return
  phase = 'started'
  setFlagsFromString('--turbofan')
}
