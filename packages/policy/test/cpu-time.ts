/**
 * Milliseconds of CPU the process spent running `work`. A wall-clock bound fails whenever the
 * machine is busy (the test waits for a core, not for the code); CPU time catches what these
 * tests are for — work that grows out of bounds — and not the load around them.
 */
export function cpuMillis(work: () => void): number {
  const before = process.cpuUsage()
  work()
  const { user, system } = process.cpuUsage(before)
  return (user + system) / 1000
}
