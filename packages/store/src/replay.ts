import { stat } from 'node:fs/promises'
import { forEachJsonl } from './line-reader.js'
import { ReplayState } from './replay-state.js'
import type { ReplayResult } from './snapshot.js'

/**
 * Replays one JSONL log into a snapshot, streaming (memory grows with the snapshot, not the file).
 * Never throws on content: torn, corrupt, invalid and unknown lines are skipped and reported with
 * their byte offsets. `file` names the log in problems (e.g. `log.jsonl`).
 */
export async function replayLogFile(path: string, file: string): Promise<ReplayResult> {
  const state = new ReplayState(file)
  await forEachJsonl(path, file, (entry) => {
    if (entry.type === 'problem') state.problems.push(entry.problem)
    else state.apply(entry.value, entry.offset, entry.length)
  })
  return { snapshot: state.finish(), problems: state.problems }
}

/** Whether a file exists (a missing log is "not found", not a crash). */
export async function fileExists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile()
  } catch {
    return false
  }
}
