#!/usr/bin/env node
import { runCli } from './router.js'

const code = await runCli({
  argv: process.argv.slice(2),
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
})
process.exitCode = code
