import type { Ajv, Options } from 'ajv'

type AjvModule = typeof import('ajv')
type AjvClass = AjvModule['Ajv']
let loaded: AjvClass | undefined
let loading: Promise<AjvClass> | undefined

/**
 * Loads ajv once. Never at import: built-in tools validate with precompiled validators, and loading
 * ajv's compiler costs ~70 ms of CPU or more at startup (issue 17). A literal `import('ajv')`, so
 * bundlers (esbuild, webpack, rollup) include ajv in ESM and CommonJS single-file bundles; a module
 * named at run time (`createRequire(...)('ajv')`) is left out of them (issue 36).
 */
export function loadAjv(): Promise<AjvClass> {
  loading ??= import('ajv').then((module: AjvModule & { default?: { Ajv?: AjvClass } }) => {
    // Node's ESM loader exposes ajv's CommonJS exports by name; a bundler's interop may nest them.
    loaded = module.Ajv ?? module.default?.Ajv
    if (loaded === undefined) throw new Error('ajv loaded without its Ajv class')
    return loaded
  })
  return loading
}

/** A new ajv instance; the caller awaited `loadAjv()` first (the async moment before a sync check). */
export function newAjv(options: Options): Ajv {
  if (loaded === undefined) throw new Error('ajv is used before loadAjv() settled (an engine bug).')
  return new loaded(options)
}
