import { createRequire } from 'node:module'

/** The CLI's version, read from its package.json (works from `src/` and from `dist/`). */
export function cliVersion(): string {
  const require = createRequire(import.meta.url)
  return (require('../package.json') as { version: string }).version
}
