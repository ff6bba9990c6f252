import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { join, relative } from 'node:path'
import { specifiersOf } from './check.js'

/** One dependency problem: declared and never used, or used and never declared. */
export interface DependencyProblem {
  manifest: string
  message: string
}

/**
 * Dependencies a package uses without naming them in its source, each with the reason. Keep this
 * short: every entry is a place the check cannot see.
 */
export const USED_BY_NAME: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  cli: {
    // The CLI's build inlines the engine but leaves these installed (apps/cli/tsup.config.ts).
    ajv: 'the inlined engine compiles tool and MCP schemas with it at run time',
    '@z-engine/context':
      'the inlined engine reads the grammar and tree-sitter runtime .wasm.br files it ships',
  },
  engine: {
    // Language servers the LSP tests start as processes (packages/engine/test/engine-lsp.test.ts).
    'typescript-language-server': 'started from node_modules/.bin by the LSP tests',
    pyright: 'pyright-langserver, started from node_modules/.bin by the LSP tests',
    '@anthropic-ai/claude-agent-sdk':
      'the real Claude Agent SDK: its types check the fix-bug program beside ours (test/claude-agent-sdk-conformance.test.ts)',
  },
}

/**
 * Imported by runtime code but bundled into the package's build (tsup `noExternal`), so declared
 * as dev dependencies: each entry says why it is bundled.
 */
export const BUNDLED: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  engine: {
    'p-limit':
      'ESM-only: bundled (with its yocto-queue) so the CommonJS build needs no require(esm), absent before Node 20.19',
    yaml: "bundled from its ES module build: its CommonJS entry's require('process') breaks embedders' ESM bundles",
  },
  prompts: {
    yaml: "bundled from its ES module build: its CommonJS entry's require('process') breaks embedders' ESM bundles",
  },
  context: {
    'web-tree-sitter':
      'bundled, its runtime wasm shipped compressed in grammars/: the published package adds a debug build and source maps (4.6 MB of the install)',
  },
}

/**
 * Declared for work in flight that lands within days; each entry names it. Remove an entry when
 * its code lands (or the work is dropped, with the dependency).
 */
export const AWAITING_USE: Readonly<Record<string, Readonly<Record<string, string>>>> = {}

const BUILTINS = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]))

function files(dir: string): string[] {
  if (!existsSync(dir)) return []
  const found: string[] = []
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'fixtures' || entry === '__fixtures__')
      continue
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) found.push(...files(path))
    else if (/\.(ts|tsx|mts|js|mjs|cjs)$/.test(entry) && !entry.endsWith('.d.ts')) found.push(path)
  }
  return found
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`); undefined for relative ones. */
export function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || BUILTINS.has(specifier)) return undefined
  if (specifier.startsWith('node:')) return undefined
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

function isDevFile(path: string): boolean {
  return (
    /\.(test|test-util|test-d)\.tsx?$/.test(path) ||
    /\.config\.[cm]?[jt]s$/.test(path) ||
    /\/(test|bench|scripts)\//.test(path)
  )
}

type Manifest = Record<string, Record<string, string> | undefined>

/**
 * Checks every package and app under `root`: a runtime import must be a dependency (or peer), a
 * test/bench/script import a dependency, dev dependency or root dev dependency; every dependency
 * must be used by runtime code and every dev dependency somewhere in the package (imported, or
 * named as a string such as a binary a test starts). `@types/x` counts as used when `x` is.
 */
export function checkDependencies(root: string): DependencyProblem[] {
  const problems: DependencyProblem[] = []
  const rootManifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest
  const rootDev = new Set(Object.keys(rootManifest.devDependencies ?? {}))
  for (const parent of ['packages', 'apps']) {
    const base = join(root, parent)
    if (!existsSync(base)) continue
    for (const name of readdirSync(base)) {
      const dir = join(base, name)
      const manifestPath = join(dir, 'package.json')
      if (!existsSync(manifestPath)) continue
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest
      const where = relative(root, manifestPath)
      const runtimeDeclared = new Set([
        ...Object.keys(manifest.dependencies ?? {}),
        ...Object.keys(manifest.peerDependencies ?? {}),
        ...Object.keys(manifest.optionalDependencies ?? {}),
      ])
      const devDeclared = new Set(Object.keys(manifest.devDependencies ?? {}))
      const self = (manifest as unknown as { name?: string }).name
      const runtimeUsed = new Set<string>()
      const devUsed = new Set<string>()
      let runtimeText = ''
      let allText = ''
      const sources = [...files(dir)].filter((path) => !path.includes('/node_modules/'))
      for (const path of sources) {
        // Double-quoted strings are test data (imports are single-quoted): `"require('z')"` is not a use.
        const text = readFileSync(path, 'utf8').replace(/"(?:[^"\\\n]|\\.)*"/g, '""')
        const dev = isDevFile(path)
        allText += text
        if (!dev) runtimeText += text
        for (const specifier of specifiersOf(text)) {
          const used = packageOf(specifier)
          if (used === undefined || used === self) continue
          ;(dev ? devUsed : runtimeUsed).add(used)
        }
      }
      for (const used of runtimeUsed) {
        if (!runtimeDeclared.has(used) && !(devDeclared.has(used) && used in (BUNDLED[name] ?? {})))
          problems.push({
            manifest: where,
            message: `'${used}' is imported by runtime code but is not in dependencies`,
          })
      }
      for (const used of devUsed) {
        if (!runtimeDeclared.has(used) && !devDeclared.has(used) && !rootDev.has(used))
          problems.push({
            manifest: where,
            message: `'${used}' is imported by tests or scripts but declared nowhere`,
          })
      }
      const named = (text: string, dependency: string) =>
        new RegExp(`['"\`]${dependency.replace(/[/.]/g, '\\$&')}(/[^'"\`]*)?['"\`]`).test(text)
      const allowed = { ...USED_BY_NAME[name], ...AWAITING_USE[name] }
      // A peer dependency of a declared dependency is used by it (an SDK's schema library).
      const peers = new Set<string>()
      for (const dependency of runtimeDeclared) {
        const peerManifest = join(dir, 'node_modules', dependency, 'package.json')
        if (!existsSync(peerManifest)) continue
        const declared = JSON.parse(readFileSync(peerManifest, 'utf8')) as Manifest
        for (const peer of Object.keys(declared.peerDependencies ?? {})) peers.add(peer)
      }
      for (const dependency of Object.keys(manifest.dependencies ?? {})) {
        if (runtimeUsed.has(dependency) || named(runtimeText, dependency) || peers.has(dependency)) continue
        if (dependency in allowed) continue
        problems.push({
          manifest: where,
          message: `dependency '${dependency}' is never used by runtime code`,
        })
      }
      for (const dependency of devDeclared) {
        const typed = dependency.startsWith('@types/')
          ? dependency.slice('@types/'.length).replace(/^(.+)__(.+)$/, '@$1/$2')
          : undefined
        const used =
          devUsed.has(dependency) ||
          runtimeUsed.has(dependency) ||
          named(allText, dependency) ||
          (typed !== undefined && (runtimeUsed.has(typed) || devUsed.has(typed) || typed === 'node'))
        if (!used && !(dependency in allowed))
          problems.push({ manifest: where, message: `devDependency '${dependency}' is never used` })
      }
    }
  }
  return problems
}
