import { createRequire } from 'node:module'
import type { Ajv, Options } from 'ajv'

type AjvModule = typeof import('ajv')
let loaded: AjvModule | undefined

/**
 * A new ajv instance. ajv is loaded on the first call, never at import: built-in tools validate with
 * precompiled validators, and loading ajv's compiler costs ~70 ms of CPU at startup (issue 17).
 * Resolved from this module like the repo map's grammars (`import.meta.url`, or CommonJS `require`
 * where a bundler left `import.meta` empty).
 */
export function newAjv(options: Options): Ajv {
  loaded ??= loadAjv()
  return new loaded.Ajv(options)
}

function loadAjv(): AjvModule {
  const here: unknown = import.meta.url
  return (typeof here === 'string' ? createRequire(here) : require)('ajv') as AjvModule
}
