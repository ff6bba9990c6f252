/**
 * Issue 21 (spec 003): "WebFetch answers its `prompt` with the fast model over the fetched page (the
 * SideModelPort), returning the raw page only when no fast model is configured, and says which."
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

let server: Server
let url = ''
beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    response.end(
      '<html><head><title>Release notes</title></head><body><h1>v2.3</h1><p>The flag is --turbo-mode.</p></body></html>',
    )
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/notes`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})

/** Runs one turn whose model calls WebFetch; `fast` is the `model.fast` setting, if any. */
async function fetchTurn(fast: string | undefined, script: Array<{ blocks: object[] }>) {
  const home = tempDir('ze-home-')
  mkdirSync(join(home, 'config'))
  writeFileSync(
    join(home, 'config', 'settings.toml'),
    `${fast === undefined ? '' : `[model]\nfast = "${fast}"\n`}[web]\nallowed_private_hosts = ["127.0.0.1"]\n`,
  )
  const t = await engineWith(script as never, home)
  const session = await t.engine.openSession({
    projectRoot: buggyProject(),
    mode: 'bypass',
    model: 'main/model',
  })
  session.send({ type: 'submit', text: 'Which flag does v2.3 add?' })
  await t.waitFor(session, 'turnFinished')
  const finished = t.events(session, 'toolFinished')[0]
  await t.engine.shutdown()
  return { t, output: finished?.type === 'toolFinished' ? (finished.output ?? '') : '' }
}

const call = () => ({
  blocks: [{ type: 'tool_use', name: 'WebFetch', input: { url, prompt: 'Which flag does v2.3 add?' } }],
})

describe('WebFetch and the fast model (issue 21, spec 003)', () => {
  it('with model.fast, the fast model answers the prompt from the page and the result says so', async () => {
    const { t, output } = await fetchTurn('fast/side', [
      call(),
      { blocks: [{ type: 'text', text: 'It adds --turbo-mode.' }] },
      { blocks: [{ type: 'text', text: 'v2.3 adds --turbo-mode.' }] },
    ])
    expect(output).toContain(
      'Answered by the fast model (fast/side) from the page, for the prompt: Which flag',
    )
    expect(output).toContain('It adds --turbo-mode.')
    expect(output).not.toContain('# v2.3')
    // The second request was the side request: the page's text and the prompt, no tools.
    const side = t.client.requests[1]!
    expect(side.tools).toEqual([])
    expect(JSON.stringify(side.messages)).toContain('The flag is --turbo-mode.')
    expect(JSON.stringify(side.messages)).toContain('Which flag does v2.3 add?')
  })

  it('without a fast model, the page itself comes back and the result says why', async () => {
    const { t, output } = await fetchTurn(undefined, [
      call(),
      { blocks: [{ type: 'text', text: 'v2.3 adds --turbo-mode.' }] },
    ])
    expect(output).toContain(
      'No fast model is configured (`model.fast` in settings), so this is the page itself',
    )
    expect(output).toContain('The flag is --turbo-mode.')
    expect(t.client.requests).toHaveLength(2)
  })
})
