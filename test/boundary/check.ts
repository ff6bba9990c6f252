import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { ALLOWED_INTERNAL, IO_MODULES, PURE_PACKAGES, RUNTIME_OF_BUNDLED } from './rules.js'

/** One broken boundary, with the file and specifier that broke it. */
export interface Violation {
  file: string
  message: string
}

const INTERNAL_SCOPE = '@z-engine/'
const CLI_NAME = 'z-engine'

interface PackageDir {
  /** Short name as in the table: `protocol`, …, `cli`. */
  name: string
  dir: string
}

function packageDirs(root: string): PackageDir[] {
  const found: PackageDir[] = []
  for (const parent of ['packages', 'apps']) {
    const base = join(root, parent)
    if (!existsSync(base)) continue
    for (const entry of readdirSync(base)) {
      const dir = join(base, entry)
      if (!existsSync(join(dir, 'package.json'))) continue
      found.push({ name: entry, dir })
    }
  }
  return found
}

/**
 * The subpaths a package's manifest exports besides its entry (`/testing`, `/internal`, …): those are
 * entries too, so importing them is not a deep import.
 */
function exportedSubpaths(dir: string): Set<string> {
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { exports?: unknown }
  const exports = manifest.exports
  if (exports === null || typeof exports !== 'object') return new Set()
  return new Set(
    Object.keys(exports)
      .filter((key) => key.startsWith('./') && key !== './package.json')
      .map((key) => key.slice(1)),
  )
}

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return []
  const files: string[] = []
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) files.push(...sourceFiles(path))
    else if (/\.(ts|tsx|mts|js|mjs)$/.test(entry)) files.push(path)
  }
  return files
}

// Static imports, re-exports, dynamic imports and require calls.
const SPECIFIER =
  /(?:\bimport\s+(?:type\s+)?(?:[^'"`;]*?\s+from\s+)?|\bexport\s+(?:type\s+)?[^'"`;]*?\s+from\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g

/** Every module specifier a source file names. */
export function specifiersOf(source: string): string[] {
  const withoutComments = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')
  return [...withoutComments.matchAll(SPECIFIER)].map((match) => match[1]!)
}

function internalTarget(specifier: string): { name: string; subpath: string } | undefined {
  if (specifier === CLI_NAME || specifier.startsWith(`${CLI_NAME}/`)) {
    return { name: 'cli', subpath: specifier.slice(CLI_NAME.length) }
  }
  if (!specifier.startsWith(INTERNAL_SCOPE)) return undefined
  const rest = specifier.slice(INTERNAL_SCOPE.length)
  const slash = rest.indexOf('/')
  return slash === -1
    ? { name: rest, subpath: '' }
    : { name: rest.slice(0, slash), subpath: rest.slice(slash) }
}

function ioModule(specifier: string): string | undefined {
  const bare = specifier.startsWith('node:') ? specifier.slice(5) : specifier
  return IO_MODULES.find((module) => bare === module || bare.startsWith(`${module}/`))
}

/** Checks one tree (the repository, or a fixture shaped like it) and lists every violation. */
export function checkBoundaries(root: string): Violation[] {
  const violations: Violation[] = []
  const subpaths = new Map(packageDirs(root).map((pkg) => [pkg.name, exportedSubpaths(pkg.dir)]))
  for (const pkg of packageDirs(root)) {
    const allowed = ALLOWED_INTERNAL[pkg.name]
    const manifestPath = join(pkg.dir, 'package.json')
    if (!allowed) {
      violations.push({
        file: relative(root, manifestPath),
        message: `package '${pkg.name}' is not in DESIGN.md's table`,
      })
      continue
    }
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<
      string,
      Record<string, string> | undefined
    >
    for (const field of ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies']) {
      for (const dependency of Object.keys(manifest[field] ?? {})) {
        const target = internalTarget(dependency)
        const bundled =
          field === 'dependencies' && target && target.name in (RUNTIME_OF_BUNDLED[pkg.name] ?? {})
        if (target && !allowed.includes(target.name) && !bundled) {
          violations.push({
            file: relative(root, manifestPath),
            message: `${field} names '${dependency}', which '${pkg.name}' may not depend on`,
          })
        }
      }
    }
    const pure = PURE_PACKAGES.includes(pkg.name)
    for (const file of sourceFiles(join(pkg.dir, 'src'))) {
      const source = readFileSync(file, 'utf8')
      const where = relative(root, file)
      for (const specifier of specifiersOf(source)) {
        const target = internalTarget(specifier)
        if (target) {
          if (target.name !== pkg.name && !allowed.includes(target.name)) {
            violations.push({
              file: where,
              message: `imports '${specifier}', which '${pkg.name}' may not import`,
            })
          } else if (target.subpath !== '' && !subpaths.get(target.name)?.has(target.subpath)) {
            violations.push({
              file: where,
              message: `deep-imports '${specifier}'; import the package's entry instead`,
            })
          }
        }
        if (pure) {
          const io = ioModule(specifier)
          if (io)
            violations.push({
              file: where,
              message: `imports I/O module '${specifier}' in pure package '${pkg.name}'`,
            })
        }
      }
      if (pure && /\bprocess\s*\.\s*env\b|\bprocess\s*\[\s*['"]env['"]\s*\]/.test(source)) {
        violations.push({ file: where, message: `reads process.env in pure package '${pkg.name}'` })
      }
    }
  }
  return violations
}
