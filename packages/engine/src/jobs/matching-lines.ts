/**
 * JobOutput's `filter`: the lines of `output` a regular expression matches (JobOutput checked it
 * compiles), or all of it without one. Shell and agent jobs alike.
 */
export function matchingLines(output: string, filter: string | undefined): string {
  if (filter === undefined) return output
  const pattern = new RegExp(filter)
  return output
    .split('\n')
    .filter((line) => pattern.test(line))
    .join('\n')
}
