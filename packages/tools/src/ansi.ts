/** Terminal escape sequences (colors, cursor moves, OSC titles) that mean nothing to a model. */
const ANSI_PATTERN = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g

/** Removes terminal escape sequences from command output. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, '')
}
