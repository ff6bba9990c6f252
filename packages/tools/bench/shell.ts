/**
 * Process costs behind Bash: one shell round trip (wrapper, eval, cwd report), a plain process,
 * starting a background job and reading it, and killing a tree of ten sleeping processes.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  BackgroundProcesses,
  childEnvironment,
  killProcessTree,
  runProcess,
  runShellCommand,
  startProcess,
} from '@z-engine/host'

const env = childEnvironment(process.env)

async function median(rounds: number, run: () => Promise<unknown>): Promise<number> {
  const times: number[] = []
  for (let round = 0; round < rounds; round += 1) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  times.sort((a, b) => a - b)
  return Math.round(times[Math.floor(rounds / 2)]! * 10) / 10
}

const dir = await mkdtemp(join(tmpdir(), 'ze-shell-bench-'))
try {
  const plain = await median(20, () => runProcess({ file: '/bin/true', args: [], cwd: dir, env }))
  console.log(`runProcess /bin/true: ${plain} ms (median of 20)`)
  const shell = await median(20, () => runShellCommand('true', { cwd: dir, env }))
  console.log(`runShellCommand 'true' (bash wrapper + cwd report): ${shell} ms (median of 20)`)
  const cd = await median(20, () => runShellCommand('cd /tmp && echo hi', { cwd: dir, env }))
  console.log(`runShellCommand 'cd /tmp && echo hi': ${cd} ms (median of 20)`)
  const jobs = new BackgroundProcesses({ env })
  const background = await median(10, async () => {
    const info = jobs.start('echo ready', { cwd: dir })
    await jobs.waitForExit(info.id, 5_000)
    jobs.read(info.id)
  })
  console.log(`background job start, exit, read: ${background} ms (median of 10)`)
  const killTimes: number[] = []
  for (let round = 0; round < 5; round += 1) {
    const child = startProcess({
      file: '/bin/bash',
      args: ['-c', 'for i in 1 2 3 4 5 6 7 8 9 10; do sleep 100 & done; wait'],
      cwd: dir,
      env,
      onOutput: () => {},
    })
    await new Promise((resolve) => setTimeout(resolve, 100))
    const started = performance.now()
    await killProcessTree(child.pid!)
    await child.done
    killTimes.push(performance.now() - started)
  }
  killTimes.sort((a, b) => a - b)
  console.log(`kill a tree of 11 processes (SIGTERM honoured): ${Math.round(killTimes[2]!)} ms (median of 5)`)
} finally {
  await rm(dir, { recursive: true, force: true })
}
