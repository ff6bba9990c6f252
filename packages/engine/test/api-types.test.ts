import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { apiProgram, apiReport } from './api-report.js'

/** The subpaths the repository's own apps import, each `src/<name>-entry.ts`. */
const APP_ENTRIES = [
  'claude-messages',
  'definitions',
  'hooks',
  'mcp',
  'models',
  'plugins',
  'repository',
  'sandbox',
  'session-access',
  'settings',
  'web',
]
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const entries = {
  index: join(root, 'src/index.ts'),
  'claude-agent-sdk': join(root, 'src/claude-agent-sdk.ts'),
  // The CLI's and the gateway's entries: unstable for embedders, but a change shows in review.
  ...Object.fromEntries(APP_ENTRIES.map((name) => [name, join(root, `src/${name}-entry.ts`)])),
}

describe('public types', () => {
  // One program for every entry: building it is most of the time.
  const program = apiProgram(join(root, 'tsconfig.json'), Object.values(entries))

  for (const [name, file] of Object.entries(entries)) {
    it(`@z-engine/engine${name === 'index' ? '' : `/${name}`}: every export's type is the checked-in one`, async () => {
      const report = apiReport(program, file)
      expect(report.split('\n').length).toBeGreaterThan(name === 'index' ? 20 : 0)
      await expect(report).toMatchFileSnapshot(join(root, 'api', `${name}.api.txt`))
    })
  }
})
