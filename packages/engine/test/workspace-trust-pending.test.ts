/** `workspaceTrustPending`: a project's own settings, not yet trusted, mean the trust prompt may come. */
import { mkdir, mkdtemp, realpath, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { workspaceTrustPending } from '../src/project-root-entry.js'
import { createTrustStore } from '../src/workspace/settings/trust-store.js'

describe('workspaceTrustPending', () => {
  it('is false without project settings, true with them until the project is trusted', async () => {
    const home = await realpath(await mkdtemp(join(tmpdir(), 'zp-trust-')))
    const project = join(home, 'work', 'app')
    await mkdir(project, { recursive: true })
    const env = { HOME: home }
    expect(await workspaceTrustPending(project, env)).toBe(false)
    await writeFile(join(project, '.mcp.json'), '{}')
    expect(await workspaceTrustPending(project, env)).toBe(true)
    await createTrustStore(join(home, '.config', 'z-engine')).trust(project)
    expect(await workspaceTrustPending(project, env)).toBe(false)
  })
})
