import { open } from 'node:fs/promises'

/**
 * The environment variable of a test-only seam: a FIFO the chat reads one byte from before it
 * takes over from the early prompt box. The pty tests hold it shut to type keys while the chat is
 * certainly not yet mounted, then write to it, so "keys before the chat is ready" never depends on
 * how fast the machine is. Users never set it; unset, the chat does not wait.
 */
export const CHAT_GATE_VARIABLE = 'Z_ENGINE_TEST_CHAT_GATE'

/** Waits for the test's gate (a FIFO named by {@link CHAT_GATE_VARIABLE}) to open; at once when unset. */
export async function chatGate(env: NodeJS.ProcessEnv): Promise<void> {
  const path = env[CHAT_GATE_VARIABLE]
  if (path === undefined || path === '') return
  // The first byte opens it; so does the test going away (end of file: no writer is left).
  const gate = await open(path, 'r')
  try {
    await gate.read(Buffer.alloc(1), 0, 1, null)
  } finally {
    await gate.close()
  }
}
