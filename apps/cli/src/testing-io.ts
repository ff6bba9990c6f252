import { PassThrough } from 'node:stream'
import type { CommandIo } from './command.js'

/** In-memory streams for running a subcommand in tests; `output()` returns what it wrote. */
export function memoryIo(
  argv: readonly string[],
  options: { stdin?: string; cwd?: string; env?: NodeJS.ProcessEnv } = {},
) {
  const stdin = new PassThrough()
  stdin.end(options.stdin ?? '')
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString('utf8')
  })
  stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString('utf8')
  })
  const io: CommandIo = {
    argv,
    stdin,
    stdout,
    stderr,
    env: options.env ?? {},
    cwd: options.cwd ?? process.cwd(),
  }
  return { io, stdout: () => out, stderr: () => err }
}
