import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { apiProgram, apiReport } from './api-report.js'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const entries = {
  index: join(root, 'src/index.ts'),
  'claude-agent-sdk': join(root, 'src/claude-agent-sdk.ts'),
}

describe('public types', () => {
  // One program for both entries: building it is most of the time.
  const program = apiProgram(join(root, 'tsconfig.json'), Object.values(entries))

  for (const [name, file] of Object.entries(entries)) {
    it(`@z-engine/engine${name === 'index' ? '' : `/${name}`}: every export's type is the checked-in one`, async () => {
      const report = apiReport(program, file)
      expect(report.split('\n').length).toBeGreaterThan(20)
      await expect(report).toMatchFileSnapshot(join(root, 'api', `${name}.api.txt`))
    })
  }
})
