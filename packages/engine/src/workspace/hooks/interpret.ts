import { parseHookStdout } from './parse-output.js'
import type { HookProcessResult } from './spawn-hook.js'
import { DEFAULT_HOOK_TIMEOUT_SECS, type HookCommand, type HookRunResult } from './types.js'

/** Turns a finished hook process into its result: exit 0 / 2 / other, JSON or text stdout. */
export function interpretHookProcess(hook: HookCommand, process: HookProcessResult): HookRunResult {
  const base = {
    hook,
    exitCode: process.exitCode,
    stdout: process.stdout,
    stderr: process.stderr,
    durationMs: process.durationMs,
  }
  if (process.spawnError !== undefined) {
    return {
      ...base,
      status: 'error',
      warnings: [`could not be started (${process.spawnError}); continuing`],
    }
  }
  if (process.cancelled) return { ...base, status: 'cancelled', warnings: [] }
  if (process.timedOut) {
    const secs = hook.timeoutSecs ?? DEFAULT_HOOK_TIMEOUT_SECS
    return {
      ...base,
      status: 'timeout',
      warnings: [
        `timed out after ${secs}s and was stopped; continuing (raise timeout_secs if it needs longer)`,
      ],
    }
  }
  if (process.exitCode === 0) {
    const parsed = parseHookStdout(process.stdout)
    switch (parsed.kind) {
      case 'text':
        return { ...base, status: 'success', warnings: [] }
      case 'json':
        return { ...base, status: 'success', output: parsed.output, warnings: parsed.warnings }
      case 'malformed':
        return {
          ...base,
          status: 'success',
          warnings: [`printed malformed JSON on stdout (${parsed.error}); its output was ignored`],
        }
      default: {
        const unknownKind: never = parsed
        return unknownKind
      }
    }
  }
  if (process.exitCode === 2) return { ...base, status: 'blocked', warnings: [] }
  const how =
    process.exitCode === null
      ? `was killed by ${process.signal ?? 'a signal'}`
      : `exited with code ${process.exitCode}`
  const detail = process.stderr.trim()
  return {
    ...base,
    status: 'failed',
    warnings: [`${how}${detail ? `: ${firstLines(detail)}` : ''}; continuing`],
  }
}

function firstLines(text: string): string {
  const lines = text.split('\n')
  return lines.length > 5 ? `${lines.slice(0, 5).join('\n')}\n…` : text
}

/** The result of a hook that was not run (an invalid matcher), with why. */
export function skippedHook(hook: HookCommand, error: string): HookRunResult {
  return {
    hook,
    status: 'error',
    exitCode: null,
    stdout: '',
    stderr: '',
    durationMs: 0,
    warnings: [`was skipped: ${error}`],
  }
}
