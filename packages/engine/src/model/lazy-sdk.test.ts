import { describe, expect, it } from 'vitest'
import { classifyError } from './errors.js'
import { lazySdk } from './lazy-sdk.js'

describe('lazySdk', () => {
  it('creates once, and turns a load failure into a typed error that is not cached', async () => {
    let calls = 0
    const sdk = lazySdk(async () => {
      calls++
      if (calls === 1) throw new Error('Cannot find module')
      return { ready: true }
    }, 'Test')
    await sdk.warm()
    const failure = await sdk.load().then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeUndefined()
    expect(calls).toBe(2)
    expect(await sdk.load()).toEqual({ ready: true })
    expect(calls).toBe(2)
    const broken = lazySdk(async () => {
      throw new Error('Cannot find module openai')
    }, 'OpenAI')
    const error = await broken.load().catch((thrown: unknown) => thrown)
    expect(classifyError(error, undefined, 'OpenAI')).toMatchObject({
      kind: 'invalid_request',
      message: expect.stringContaining('Could not load the OpenAI SDK (Cannot find module openai)'),
    })
  })
})
