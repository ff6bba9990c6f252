import { lstat, readFile, realpath, stat } from 'node:fs/promises'
import { isAbsolute, join, resolve, sep } from 'node:path'
import { gitHooksFolder } from '../git/hooks-folder.js'
import type { ProfilePath, SandboxMode, SandboxProfile } from './profile.js'
import { PROTECTED_IN_ROOT, SECRET_PATHS, TOOL_CACHES } from './tables.js'

/** What one confined command needs resolved against the disk. */
export interface ProfileRequest {
  mode: SandboxMode
  /** The agent's root: the project, or a worktree agent's worktree. */
  root: string
  additionalDirectories: readonly string[]
  home: string
  /** The session's private temp folder (exists). */
  tmpDir: string
  /** `[shell.sandbox] allow_network` (read-only commands never get the network). */
  allowNetwork: boolean
  /** Where tool caches were moved (`GOCACHE`, `npm_config_cache`…). */
  env: Readonly<Record<string, string | undefined>>
}

/**
 * Resolves a profile: real paths (a symlinked root or `/tmp` on macOS), which protected and secret
 * paths exist, and where a worktree's git folder lives. Only reads the disk.
 */
export async function resolveProfile(request: ProfileRequest): Promise<SandboxProfile> {
  const tmpDir = await realOr(request.tmpDir)
  const hidden = await existing(SECRET_PATHS.map((path) => expandHome(path, request.home)))
  if (request.mode === 'read-only') {
    return {
      mode: 'read-only',
      writable: [tmpDir],
      readOnly: [],
      placeholders: [],
      pinned: [],
      hidden,
      tmpDir,
      network: false,
    }
  }
  const root = await realOr(request.root)
  const caches = await existingToolCaches(request.home, request.env)
  const git = await gitProtection(root, request.home, request.env)
  const writable = unique([
    root,
    ...(await existingDirs(request.additionalDirectories)),
    ...caches,
    ...git.writable,
    tmpDir,
  ])
  const candidates = [
    ...PROTECTED_IN_ROOT.filter((name) => !name.startsWith('.git/')).map((name) => join(root, name)),
    ...git.protect,
  ]
  const readOnly: ProfilePath[] = []
  const placeholders: ProfilePath[] = []
  for (const path of unique(candidates)) {
    const found = await kindOf(path)
    if (found !== undefined) {
      const real = await realOr(path)
      if (within(real, writable)) readOnly.push({ path: real, kind: found })
    } else if (within(path, writable)) {
      placeholders.push({ path, kind: placeholderKind(path) })
    }
  }
  return {
    mode: 'write',
    writable,
    readOnly,
    placeholders,
    pinned: git.pinned,
    hidden,
    tmpDir,
    network: request.allowNetwork,
  }
}

/** The tool caches of {@link TOOL_CACHES} that exist (real paths; moved ones where their variable says). */
export async function existingToolCaches(
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  const caches = TOOL_CACHES.map((cache) => {
    const moved = cache.env !== undefined ? env[cache.env] : undefined
    return moved !== undefined && isAbsolute(moved) ? moved : expandHome(cache.path, home)
  })
  return existingDirs(caches)
}

/** Paths named for files (`config`, `.mcp.json`) get an empty file; the rest an empty folder. */
function placeholderKind(path: string): 'dir' | 'file' {
  return path.endsWith(`${sep}config`) || path.endsWith('.json') ? 'file' : 'dir'
}

/**
 * The git paths to keep read-only. In a worktree `.git` is a file naming the real git folder
 * elsewhere: that file stays read-only (re-pointing it would swap in other hooks), the worktree's
 * and the common git folder stay writable (commits need objects and refs), their hooks, config
 * and info do not. A `core.hooksPath` inside the root is protected too.
 */
async function gitProtection(
  root: string,
  home: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<{ protect: string[]; writable: string[]; pinned: string[] }> {
  const dotGit = join(root, '.git')
  const kind = await kindOf(dotGit)
  if (kind === undefined) return { protect: [], writable: [], pinned: [] }
  let common = dotGit
  const writable: string[] = []
  const protect: string[] = []
  if (kind === 'file') {
    const gitDir = await readGitDir(dotGit, root)
    if (gitDir === undefined) return { protect: [dotGit], writable: [], pinned: [] }
    const commonDir = await readFile(join(gitDir, 'commondir'), 'utf8').then(
      (text) => resolve(gitDir, text.trim()),
      () => gitDir,
    )
    common = await realOr(commonDir)
    writable.push(await realOr(gitDir), common)
    protect.push(dotGit, join(gitDir, 'config.worktree'))
  }
  protect.push(join(common, 'hooks'), join(common, 'config'), join(common, 'info'))
  // The folder git runs hooks from (core.hooksPath at any level): protected when it is elsewhere.
  const hooksPath = gitHooksFolder(root, { env, home })
  if (hooksPath !== undefined && (await realOr(hooksPath)) !== (await realOr(join(common, 'hooks'))))
    protect.push(hooksPath)
  return { protect, writable, pinned: [common] }
}

async function readGitDir(dotGit: string, root: string): Promise<string | undefined> {
  const text = await readFile(dotGit, 'utf8').catch(() => '')
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text)
  return match?.[1] ? realOr(resolve(root, match[1])) : undefined
}

function expandHome(path: string, home: string): string {
  return path === '~' ? home : path.startsWith('~/') ? join(home, path.slice(2)) : path
}

async function kindOf(path: string): Promise<'dir' | 'file' | undefined> {
  const info = await stat(path).catch(() => undefined)
  if (!info) return (await lstat(path).catch(() => undefined)) ? 'file' : undefined
  return info.isDirectory() ? 'dir' : 'file'
}

async function realOr(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path))
}

async function existing(paths: readonly string[]): Promise<ProfilePath[]> {
  const found: ProfilePath[] = []
  for (const path of paths) {
    const kind = await kindOf(path)
    if (kind !== undefined) found.push({ path: await realOr(path), kind })
  }
  return found
}

async function existingDirs(paths: readonly string[]): Promise<string[]> {
  const found = await existing(paths)
  return found.filter((entry) => entry.kind === 'dir').map((entry) => entry.path)
}

/** Whether `path` is one of `folders` or below one. */
export function within(path: string, folders: readonly string[]): boolean {
  return folders.some(
    (folder) => path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep),
  )
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)]
}
