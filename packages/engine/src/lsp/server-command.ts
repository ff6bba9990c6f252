import { execFileSync } from 'node:child_process'
import { accessSync, constants, existsSync, readdirSync, realpathSync } from 'node:fs'
import { homedir } from 'node:os'
import { basename, delimiter, isAbsolute, join, resolve, sep } from 'node:path'
import type { LspServerSpec } from './server-table.js'

/** What finding a server's command depends on: the project, the child environment, trust now. */
export interface ServerCommandWhere {
  root: string
  env: Record<string, string>
  trusted(): boolean
}

/**
 * The command's absolute path. In a trusted workspace, the project's own install first
 * ({@link PROJECT_BIN_DIRS}: what its lockfile installed, run as confined as any server). Else
 * resolved outside the project (issue 34): as configured when absolute, else the first on PATH
 * that is neither inside the project nor a launcher the project steers (rustup's proxies obey `rust-toolchain.toml`, asdf/mise/pyenv
 * shims obey `.tool-versions`/`.python-version`). A rustup proxy is replaced by the default
 * toolchain's own binary (`rustup which`, run outside the project).
 */
export function serverCommandPath(spec: LspServerSpec, where: ServerCommandWhere): string | undefined {
  const root = where.root
  const command = spec.command
  // A trusted project's own install comes first (issue 39): its `node_modules/.bin` or virtualenv.
  if (!command.includes('/') && where.trusted()) {
    const local = PROJECT_BIN_DIRS.map((dir) => join(root, dir, command)).find(executable)
    if (local !== undefined) return local
  }
  const candidates = command.includes('/')
    ? [isAbsolute(command) ? command : resolve(root, command)]
    : (where.env.PATH ?? '')
        .split(delimiter)
        .filter((dir) => dir !== '')
        .map((dir) => join(dir, command))
  for (const path of candidates) {
    if (!executable(path)) continue
    const real = realOr(path)
    if ([root, realOr(root)].some((folder) => isInside(path, folder) || isInside(real, folder))) continue
    if (isShim(path, real)) continue
    if (basename(real) === 'rustup' && basename(path) !== 'rustup') {
      if (!rustupMayHave(basename(path), where.env)) continue
      const actual = rustupWhich(basename(path), where.env)
      if (actual !== undefined && !isInside(realOr(actual), realOr(root))) return actual
      continue
    }
    return path
  }
  return undefined
}

/**
 * Where a trusted project installs its own servers (issue 39): npm/pnpm/yarn's bin folder and the
 * usual virtualenv folders.
 */
const PROJECT_BIN_DIRS = [join('node_modules', '.bin'), join('.venv', 'bin'), join('venv', 'bin')]

/** Whether a file can be run. */
export function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}

/** A path with its links resolved, or the path itself when it cannot be. */
function realOr(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

/** Whether `path` is `root` or lies under it. */
function isInside(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)
}

/** A version manager's shim: it picks the real binary from the project's version files. */
function isShim(path: string, real: string): boolean {
  const shimmed = (p: string) =>
    p.split(sep).includes('shims') || /[\\/](?:\.asdf|mise|\.mise|\.pyenv|\.rbenv|\.nodenv)[\\/]/.test(p)
  return shimmed(path) || shimmed(real) || basename(real) === 'mise' || basename(real) === 'asdf'
}

/**
 * Whether any installed rustup toolchain holds `name`: a proxy whose component no toolchain has
 * (rustup installed, rust-analyzer not added) makes `rustup which` fail, so it is not run — it is a
 * blocking process start in every session's assembly (issue 40). A toolchains folder that cannot be
 * read for another reason than absence leaves the question to rustup.
 */
function rustupMayHave(name: string, env: Record<string, string>): boolean {
  const rustupHome = env.RUSTUP_HOME || join(env.HOME || homedir(), '.rustup')
  const toolchains = join(rustupHome, 'toolchains')
  let names: string[]
  try {
    names = readdirSync(toolchains)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code !== 'ENOENT' && code !== 'ENOTDIR'
  }
  return names.some((toolchain) => existsSync(join(toolchains, toolchain, 'bin', name)))
}

/** The default toolchain's binary behind a rustup proxy, asked outside any project. */
function rustupWhich(name: string, env: Record<string, string>): string | undefined {
  const { RUSTUP_TOOLCHAIN: _ignored, ...rest } = env
  try {
    // From `/`: rustup looks for a toolchain file in the folder it starts in and every parent, and
    // the shared temp folder is anybody's to write one into.
    const path = execFileSync('rustup', ['which', name], {
      cwd: '/',
      env: rest,
      encoding: 'utf8',
      timeout: 10_000,
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim()
    return path !== '' && executable(path) ? path : undefined
  } catch {
    return undefined
  }
}
