import { runCli } from './router.js'
import { setV8Flags } from './v8-flags.js'

setV8Flags()

const code = await runCli({
  argv: process.argv.slice(2),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
})
// Every command has finished its work (sessions closed, journals synced) when runCli resolves.
// Exit now rather than when the event loop drains: idle keep-alive sockets, worker threads ending
// and the heap's teardown held a finished `exec` 0.3–1 s (issue 17). Output is flushed first.
const flushed = (stream: NodeJS.WriteStream) =>
  new Promise<void>((resolve) => {
    if (stream.writableLength === 0) resolve()
    else stream.write('', () => resolve())
  })
await Promise.all([flushed(process.stdout), flushed(process.stderr)])
process.exit(code)
