// Official Node builds from the npm registry (`node-<platform>-<arch>`, which holds `bin/node` and
// `include/node`): the only place a machine that reaches just the registries can get another Node
// version or a version's C headers. Kept under `.cache/` in the repository (ignored by git).
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where fetched builds are kept: `.cache/<kind>/<version>` in the repository. */
export function cacheDir(kind, version) {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '.cache', kind, version)
}

/**
 * Unpacks `paths` (e.g. `['include']` or `['bin', 'include']`) of Node `version`'s official build into
 * `.cache/<kind>/<version>` and returns that folder; a folder already there is reused. Throws with
 * npm's first error line when the registry does not answer.
 */
export function fetchOfficialNode(kind, version, paths) {
  const target = cacheDir(kind, version)
  if (paths.every((path) => existsSync(join(target, path)))) return target
  const name = `node-${process.platform}-${process.arch}`
  const work = mkdtempSync(join(tmpdir(), 'z-engine-node-'))
  try {
    execFileSync('npm', ['pack', `${name}@${version}`, '--loglevel', 'error', '--pack-destination', work], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    const tarball = readdirSync(work).find((file) => file.endsWith('.tgz'))
    if (tarball === undefined) throw new Error(`npm pack ${name}@${version} wrote no tarball`)
    const members = paths.map((path) => `package/${path}`)
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', work, ...members], { stdio: 'ignore' })
    mkdirSync(dirname(target), { recursive: true })
    rmSync(target, { recursive: true, force: true })
    renameSync(join(work, 'package'), target)
    return target
  } catch (error) {
    const stderr = error?.stderr?.toString().trim()
    const reason = stderr || (error instanceof Error ? error.message : String(error))
    throw new Error(`${name}@${version} from the npm registry: ${reason.split('\n')[0]}`)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}
