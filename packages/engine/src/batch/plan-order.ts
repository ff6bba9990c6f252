/**
 * Execution order of a batch (spec 000 "Tool batch"): neighbouring concurrency-safe calls run
 * together; any other call is a barrier and runs alone. Call order is kept for results.
 */

/** A run of calls that execute together (`concurrent`) or one call that runs alone. */
export type ExecutionGroup = { type: 'concurrent'; indices: number[] } | { type: 'alone'; index: number }

/** Groups call indices by concurrency safety, preserving order. */
export function planExecutionOrder(concurrencySafe: readonly boolean[]): ExecutionGroup[] {
  const groups: ExecutionGroup[] = []
  let run: number[] = []
  const flush = () => {
    if (run.length > 0) groups.push({ type: 'concurrent', indices: run })
    run = []
  }
  concurrencySafe.forEach((safe, index) => {
    if (safe) {
      run.push(index)
      return
    }
    flush()
    groups.push({ type: 'alone', index })
  })
  flush()
  return groups
}
