#!/usr/bin/env node
import { main } from './cli.js'

process.exitCode = await main({
  argv: process.argv.slice(2),
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
})
