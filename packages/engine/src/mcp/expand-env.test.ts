// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings hold literal ${VAR} references to expand.
import { describe, expect, it } from 'vitest'
import { expandEnv } from './expand-env.js'

describe('expandEnv', () => {
  const env = { TOKEN: 'abc', EMPTY: '', HOME: '/home/u' }

  it('replaces ${VAR} and keeps the rest of the text', () => {
    expect(expandEnv('Bearer ${TOKEN}', env)).toEqual({ value: 'Bearer abc', missing: [] })
    expect(expandEnv('${HOME}/data:${TOKEN}', env).value).toBe('/home/u/data:abc')
  })

  it('uses the default for unset or empty variables', () => {
    expect(expandEnv('${PORT:-8080}', env)).toEqual({ value: '8080', missing: [] })
    expect(expandEnv('${EMPTY:-x}', env).value).toBe('x')
    expect(expandEnv('${TOKEN:-x}', env).value).toBe('abc')
    expect(expandEnv('${NONE:-}', env)).toEqual({ value: '', missing: [] })
  })

  it('reports variables without a default that are unset, once each', () => {
    expect(expandEnv('${A}-${A}-${B}', env)).toEqual({ value: '--', missing: ['A', 'B'] })
  })

  it('leaves text that is not a reference alone', () => {
    expect(expandEnv('$TOKEN ${1x} ${', env).value).toBe('$TOKEN ${1x} ${')
  })
})
