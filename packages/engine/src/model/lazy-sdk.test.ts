import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { classifyError } from './errors.js'
import { lazySdk, loadFailureMessage } from './lazy-sdk.js'
import { PROVIDER_SDKS } from './provider-sdks.js'

describe('lazySdk', () => {
  it('creates once, and turns a load failure into a typed error that is not cached', async () => {
    let calls = 0
    const sdk = lazySdk(async () => {
      calls++
      if (calls === 1) throw new Error('socket closed')
      return { ready: true }
    }, 'Anthropic')
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
      throw new Error('bad build')
    }, 'OpenAI')
    const error = await broken.load().catch((thrown: unknown) => thrown)
    expect(classifyError(error, undefined, 'OpenAI')).toMatchObject({
      kind: 'invalid_request',
      message: expect.stringContaining('Could not load the OpenAI SDK (bad build). Reinstall openai@6.49.0'),
    })
  })

  it('names the install command when an optional provider SDK is not installed', async () => {
    // The error Node raises for an import of a package that is not installed (the packaging test
    // meets the real one).
    const missing = Object.assign(
      new Error(
        "Cannot find package '@anthropic-ai/sdk' imported from /app/node_modules/@z-engine/engine/dist/index.js",
      ),
      { code: 'ERR_MODULE_NOT_FOUND' },
    )
    expect(loadFailureMessage('Anthropic', missing)).toBe(
      'The Anthropic SDK is not installed. The engine loads provider SDKs as optional peer dependencies: run `npm install @anthropic-ai/sdk@1.14.0` in your app.',
    )
    const broken = Object.assign(new Error("Cannot find module './x.js' imported from openai"), {
      code: 'ERR_MODULE_NOT_FOUND',
    })
    expect(loadFailureMessage('Anthropic', broken)).toContain('Could not load the Anthropic SDK')
  })

  it('lists the same SDK versions as package.json, as optional peer dependencies', () => {
    const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as {
      peerDependencies: Record<string, string>
      peerDependenciesMeta: Record<string, { optional?: boolean }>
      dependencies: Record<string, string>
      devDependencies: Record<string, string>
    }
    for (const { packageName, version } of Object.values(PROVIDER_SDKS)) {
      expect(manifest.peerDependencies[packageName], packageName).toBe(`^${version}`)
      expect(manifest.peerDependenciesMeta[packageName], packageName).toEqual({ optional: true })
      expect(manifest.devDependencies[packageName], packageName).toBe(version)
      expect(manifest.dependencies[packageName], packageName).toBeUndefined()
    }
  })
})
