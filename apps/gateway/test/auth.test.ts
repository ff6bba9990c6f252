/**
 * Authentication and tenancy: hashed static keys with tenants and limits, OIDC tokens from a local
 * issuer (discovery + JWKS served here, tokens signed with jose), request ids.
 */
import { createServer, type Server } from 'node:http'
import { exportJWK, generateKeyPair, SignJWT } from 'jose'
import OpenAI from 'openai'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { hashApiKey } from '../src/http/auth.js'
import { parseKeyFile } from '../src/key-file.js'
import { type Stack, startStack, text } from './harness.js'

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>
let issuer: Server
let issuerUrl = ''
let signing: KeyPair
let stranger: KeyPair
let jwksFetches = 0

beforeAll(async () => {
  signing = await generateKeyPair('RS256')
  stranger = await generateKeyPair('RS256')
  const jwk = { ...(await exportJWK(signing.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }
  issuer = createServer((request, response) => {
    if (request.url === '/.well-known/openid-configuration') {
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ issuer: issuerUrl, jwks_uri: `${issuerUrl}/jwks` }))
      return
    }
    if (request.url === '/jwks') {
      jwksFetches += 1
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }))
      return
    }
    response.writeHead(404).end()
  })
  await new Promise<void>((resolve) => issuer.listen(0, '127.0.0.1', resolve))
  const address = issuer.address()
  issuerUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
})
afterAll(() => issuer.close())

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

const token = (
  claims: Record<string, unknown>,
  options: { key?: KeyPair; expires?: string; audience?: string } = {},
) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
    .setIssuer(issuerUrl)
    .setAudience(options.audience ?? 'z-gateway')
    .setIssuedAt()
    .setExpirationTime(options.expires ?? '5m')
    .sign((options.key ?? signing).privateKey)

const clientFor = (s: Stack, apiKey: string) =>
  new OpenAI({ apiKey, baseURL: `${s.gateway.url}/v1`, maxRetries: 0, timeout: 20_000 })

const startAuthStack = (script: Parameters<typeof startStack>[0]) =>
  startStack(script, {
    apiKey: 'key-a',
    config: {
      apiKeyEntries: [
        { id: 'alice', sha256: hashApiKey('key-a'), tenant: 'team-a' },
        { id: 'bob', sha256: hashApiKey('key-b'), tenant: 'team-b' },
        {
          id: 'tiny',
          sha256: hashApiKey('key-tiny'),
          tenant: 'team-t',
          requestsPerMinute: 2,
          maxRequestBytes: 300,
        },
      ],
      oidc: { issuer: issuerUrl, audience: 'z-gateway', tenantClaim: 'tenant' },
    },
  })

describe('tenancy', () => {
  it("one tenant never reads another's responses or conversations (404), by key or by token", async () => {
    stack = await startAuthStack([text('first'), text('second'), text('third')])
    const alice = clientFor(stack, 'key-a')
    const bob = clientFor(stack, 'key-b')
    const response = await alice.responses.create({ model: 'm', input: 'hello' })
    const conversation = await alice.conversations.create({
      items: [{ type: 'message', role: 'user', content: 'hi' }],
    })

    for (const attempt of [
      () => bob.responses.retrieve(response.id),
      () => bob.responses.delete(response.id),
      () => bob.responses.create({ model: 'm', input: 'steal', previous_response_id: response.id }),
      () => bob.conversations.retrieve(conversation.id),
      () => bob.conversations.update(conversation.id, { metadata: { x: 'y' } }),
      () => bob.conversations.items.list(conversation.id),
      () =>
        bob.conversations.items.create(conversation.id, {
          items: [{ type: 'message', role: 'user', content: 'x' }],
        }),
      () => bob.responses.create({ model: 'm', input: 'steal', conversation: conversation.id }),
      () => bob.conversations.delete(conversation.id),
    ])
      await expect(attempt()).rejects.toMatchObject({ status: 404 })
    expect(stack.upstream.requests).toHaveLength(1)

    // A token whose tenant claim is team-a is the same tenant as alice's key.
    const asAlice = clientFor(stack, await token({ sub: 'user-1', tenant: 'team-a' }))
    expect((await asAlice.responses.retrieve(response.id)).id).toBe(response.id)
    const next = await asAlice.responses.create({
      model: 'm',
      input: 'more',
      previous_response_id: response.id,
    })
    expect(next.previous_response_id).toBe(response.id)
    const asOther = clientFor(stack, await token({ sub: 'user-2', tenant: 'team-z' }))
    await expect(asOther.conversations.retrieve(conversation.id)).rejects.toMatchObject({ status: 404 })
    expect((await alice.conversations.items.list(conversation.id)).data).toHaveLength(1)
  })

  it('refuses expired, wrongly signed and wrong-audience tokens with 401 and no data', async () => {
    stack = await startAuthStack([text('stored')])
    const alice = clientFor(stack, 'key-a')
    const response = await alice.responses.create({ model: 'm', input: 'secret' })
    const bad = [
      await token({ sub: 'u', tenant: 'team-a' }, { expires: '-1m' }),
      await token({ sub: 'u', tenant: 'team-a' }, { key: stranger }),
      await token({ sub: 'u', tenant: 'team-a' }, { audience: 'someone-else' }),
      'not-a-key-nor-a-token',
    ]
    const messages: string[] = []
    for (const credential of bad) {
      const reply = await fetch(`${stack.gateway.url}/v1/responses/${response.id}`, {
        headers: { authorization: `Bearer ${credential}` },
      })
      expect(reply.status).toBe(401)
      const body = await reply.text()
      expect(body).not.toContain('secret')
      expect(body).not.toContain('stored')
      messages.push((JSON.parse(body) as { error: { message: string } }).error.message)
    }
    expect(messages[0]).toContain('expired')
    expect(messages[1]).toContain('not signed by the issuer')
    expect(messages[2]).toContain('aud')
    // The JWKS was fetched once and cached across requests.
    expect(jwksFetches).toBeGreaterThanOrEqual(1)
    const before = jwksFetches
    await clientFor(stack, await token({ sub: 'u', tenant: 'team-a' })).responses.retrieve(response.id)
    expect(jwksFetches).toBe(before)
  })
})

describe('per-key limits and request ids', () => {
  it('limits a key to its requests per minute (429 with retry-after) and its body size (413)', async () => {
    stack = await startAuthStack([text('a'), text('b')])
    const tiny = (body: string) =>
      fetch(`${stack?.gateway.url}/v1/responses`, {
        method: 'POST',
        headers: { authorization: 'Bearer key-tiny', 'content-type': 'application/json' },
        body,
      })
    expect((await tiny(JSON.stringify({ model: 'm', input: 'x'.repeat(400) }))).status).toBe(413)
    expect((await tiny(JSON.stringify({ model: 'm', input: 'ok' }))).status).toBe(200)
    const limited = await tiny(JSON.stringify({ model: 'm', input: 'ok' }))
    expect(limited.status).toBe(429)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    // Another key is not limited by it.
    expect((await clientFor(stack, 'key-a').responses.create({ model: 'm', input: 'fine' })).status).toBe(
      'completed',
    )
  })

  it('puts a request id on every response and its log lines', async () => {
    stack = await startAuthStack([text('a')])
    const reply = await fetch(`${stack.gateway.url}/v1/responses/resp_missing`, {
      headers: { 'x-api-key': 'key-a' },
    })
    expect(reply.status).toBe(404)
    const id = reply.headers.get('x-request-id')
    expect(id).toMatch(/^req_[0-9a-f]{24}$/)
    expect(reply.headers.get('request-id')).toBe(id)
    expect(stack.logs.some((line) => line.request_id === id && line.msg === 'request')).toBe(true)
    const messages = await fetch(`${stack.gateway.url}/v1/messages`, {
      method: 'POST',
      headers: { 'x-api-key': 'nope' },
    })
    expect(await messages.json()).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
      request_id: messages.headers.get('request-id'),
    })
  })

  it('reads a key file of hashes and refuses one holding anything else', () => {
    const good = parseKeyFile(
      JSON.stringify([{ id: 'a', sha256: hashApiKey('k'), tenant: 't', requests_per_minute: 5 }]),
      'keys.json',
    )
    expect(good).toEqual([{ id: 'a', sha256: hashApiKey('k'), tenant: 't', requestsPerMinute: 5 }])
    expect(parseKeyFile(JSON.stringify([{ id: 'a', sha256: 'sk-plain-key' }]), 'keys.json')).toMatchObject({
      error: expect.stringContaining('never the key'),
    })
  })
})
