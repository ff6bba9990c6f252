/**
 * Gateway hygiene (issue 34): a private database, a keyless gateway a web page cannot drive
 * (DNS rebinding, cross-site POST), no blank API key, and a malformed percent-encoded id is the
 * client's 400.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { main } from '../src/cli.js'
import { startGateway } from '../src/gateway.js'
import { type Stack, startStack, text } from './harness.js'

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

/** A raw request, so the Host and Origin headers are exactly what a browser page would send. */
function raw(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  const { port } = new URL(url)
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        let body = ''
        res.on('data', (chunk) => {
          body += chunk
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

describe('gateway hygiene (issue 34)', () => {
  it('creates its database 0600 in a folder 0700', async () => {
    const base = mkdtempSync(join(tmpdir(), 'gw-perm-'))
    const db = join(base, 'nested', 'data', 'gateway.db')
    stack = await startStack([text('ok')], { db: `sqlite:${db}` })
    expect(statSync(db).mode & 0o777).toBe(0o600)
    expect(statSync(join(base, 'nested', 'data')).mode & 0o777).toBe(0o700)
    await stack.close()
    stack = undefined
    rmSync(base, { recursive: true, force: true })
  })

  it('keyless: refuses a foreign Host (DNS rebinding) and a cross-site Origin with a clear 403', async () => {
    stack = await startStack([text('ok'), text('ok')])
    const url = stack.gateway.url
    const port = new URL(url).port
    const rebinding = await raw(url, { path: '/health', headers: { host: `evil.example:${port}` } })
    expect(rebinding.status).toBe(403)
    expect(rebinding.body).toContain('DNS rebinding')
    const crossSite = await raw(url, {
      method: 'POST',
      path: '/v1/responses',
      headers: {
        host: `127.0.0.1:${port}`,
        origin: 'https://evil.example',
        'content-type': 'text/plain',
      },
      body: JSON.stringify({ model: 'm', input: 'x' }),
    })
    expect(crossSite.status).toBe(403)
    expect(crossSite.body).toContain('other sites')
    expect((await raw(url, { path: '/health', headers: { host: `localhost:${port}` } })).status).toBe(200)
    expect(
      (
        await raw(url, {
          path: '/health',
          headers: { host: `127.0.0.1:${port}`, origin: `http://localhost:5173` },
        })
      ).status,
    ).toBe(200)
    // The SDK's own requests (Host 127.0.0.1, no Origin) are served.
    expect((await stack.client.responses.create({ model: 'm', input: 'x' })).output_text).toBe('ok')
  })

  it('with keys, Host and Origin are the keys’ business', async () => {
    stack = await startStack([text('ok')], { config: { apiKeys: ['sk-k'] }, apiKey: 'sk-k' })
    const port = new URL(stack.gateway.url).port
    const answer = await raw(stack.gateway.url, {
      path: '/health',
      headers: { host: `gateway.internal:${port}`, authorization: 'Bearer sk-k' },
    })
    expect(answer.status).toBe(200)
  })

  it('a malformed percent-encoded id is a 400', async () => {
    stack = await startStack([text('ok')])
    const answer = await fetch(`${stack.gateway.url}/v1/responses/%E0%A4%A`)
    expect(answer.status).toBe(400)
    expect(await answer.text()).toContain('percent-encoded')
  })

  it('refuses a blank API key', async () => {
    await expect(
      startGateway({
        config: { upstreamUrl: 'http://127.0.0.1:9/v1', apiKeys: ['  '] },
        db: 'sqlite::memory:',
      }),
    ).rejects.toThrow(/blank API key/)
    const errors: string[] = []
    const code = await main({
      argv: ['--upstream', 'http://127.0.0.1:9/v1', '--api-key', ''],
      env: {},
      stdout: { write: () => true },
      stderr: { write: (text: string) => errors.push(text) > 0 },
    } as unknown as Parameters<typeof main>[0])
    expect(code).toBe(2)
    expect(errors.join('')).toContain('--api-key is blank')
  })
})
