import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { startScriptedServer } from '@z-engine/engine/testing'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { main } from '../src/cli.js'

function io(argv: string[], signal?: AbortSignal) {
  const stdout = new PassThrough()
  const stderr = new PassThrough()
  let out = ''
  let err = ''
  stdout.on('data', (chunk) => {
    out += String(chunk)
  })
  stderr.on('data', (chunk) => {
    err += String(chunk)
  })
  return {
    io: { argv, stdout, stderr, env: {}, ...(signal ? { signal } : {}) },
    out: () => out,
    err: () => err,
  }
}

describe('z-engine gateway (the command)', () => {
  it('refuses bad flags with exit code 2 and a message naming the fix', async () => {
    const missing = io([])
    expect(await main(missing.io)).toBe(2)
    expect(missing.err()).toContain('--upstream URL is required')
    const open = io(['--upstream', 'http://127.0.0.1:1/v1', '--host', '0.0.0.0'])
    expect(await main(open.io)).toBe(2)
    expect(open.err()).toContain('without authentication')
    const scheme = io(['--upstream', 'http://127.0.0.1:1/v1', '--db', 'mysql://u:pw@h/db'])
    expect(await main(scheme.io)).toBe(1)
    expect(scheme.err()).toContain('mysql://u:***@h/db')
    expect(scheme.err()).not.toContain(':pw@')
  })

  it('checks the auth and web fetch flags: a key file holds hashes only, OIDC needs an audience', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-cli-keys-'))
    try {
      const file = join(dir, 'keys.json')
      writeFileSync(file, JSON.stringify([{ id: 'a', sha256: 'sk-a-plain-key' }]))
      const plain = io(['--upstream', 'http://127.0.0.1:1/v1', '--api-keys-file', file])
      expect(await main(plain.io)).toBe(2)
      expect(plain.err()).toContain('never the key')
      const oidc = io(['--upstream', 'http://127.0.0.1:1/v1', '--oidc-issuer', 'https://id.example'])
      expect(await main(oidc.io)).toBe(2)
      expect(oidc.err()).toContain('--oidc-audience')
      const fetchHost = io(['--upstream', 'http://127.0.0.1:1/v1', '--web-fetch-private-host', '10.0.0.1'])
      expect(await main(fetchHost.io)).toBe(2)
      expect(fetchHost.err()).toContain('--web-fetch')
      // OIDC alone is authentication enough to bind beyond loopback.
      const wide = io(
        [
          '--upstream',
          'http://127.0.0.1:1/v1',
          '--host',
          '0.0.0.0',
          '--port',
          '0',
          '--db',
          `sqlite:${join(dir, 'gw.db')}`,
          '--oidc-issuer',
          'https://id.example',
          '--oidc-audience',
          'gw',
        ],
        AbortSignal.abort(),
      )
      expect(await main(wide.io)).toBe(0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('serves until stopped, with a bearer key, logging without secrets', async () => {
    const upstream = await startScriptedServer([{ blocks: [{ type: 'text', text: 'from the command' }] }])
    const dir = mkdtempSync(join(tmpdir(), 'gateway-cli-'))
    const stop = new AbortController()
    const run = io(
      [
        '--upstream',
        upstream.openaiBaseUrl,
        '--db',
        `sqlite:${join(dir, 'g.db')}`,
        '--port',
        '0',
        '--api-key',
        'sk-cli-secret',
      ],
      stop.signal,
    )
    const exit = main(run.io)
    await expect.poll(() => run.out(), { timeout: 10_000 }).toContain('gateway listening on')
    const url = /listening on (\S+)/.exec(run.out())?.[1] ?? ''
    const client = new OpenAI({ apiKey: 'sk-cli-secret', baseURL: `${url}/v1`, maxRetries: 0 })
    const response = await client.responses.create({ model: 'm', input: 'hi' })
    expect(response.output_text).toBe('from the command')
    stop.abort()
    expect(await exit).toBe(0)
    expect(run.err()).toContain('"msg":"request"')
    expect(run.err()).not.toContain('sk-cli-secret')
    await upstream.close()
    rmSync(dir, { recursive: true, force: true })
  })
})
