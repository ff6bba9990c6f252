import { readFile, stat } from 'node:fs/promises'
import { dirname, isAbsolute, join, resolve } from 'node:path'
import {
  decodeInstructionBytes,
  expandImports,
  findImports,
  INSTRUCTION_MAX_IMPORT_HOPS,
  type InstructionFile,
  type InstructionScope,
  stripHtmlComments,
} from '@z-engine/context'
import { pathExists } from '@z-engine/host'
import { displayPath, isInside, realPathOrNull, userConfigDir } from './paths.js'

/** Where to look for instruction files. */
export interface InstructionDiscoveryOptions {
  /** The project folder (the session's working root). */
  projectRoot: string
  /** The user's home folder. */
  home: string
  /** `compat.claude` (default true): also read CLAUDE.md, CLAUDE.local.md and ~/.claude/CLAUDE.md. */
  compatClaude?: boolean
  /** The z-engine config folder (default `~/.config/z-engine`; `$XDG_CONFIG_HOME/z-engine` when set). */
  configDir?: string
  /** Read the user's own files (`~/.claude/CLAUDE.md`, the config folder's AGENTS.md); default true. */
  userFiles?: boolean
  /**
   * Whether a `Read(...)` deny rule covers a path (the session's gate). A file it covers — named
   * directly, imported, or reached through a symlink — is not loaded, with a warning saying so.
   */
  isReadDenied?: (path: string) => boolean
}

/** The instructions section's files, and files that were skipped with the reason. */
export interface LoadedInstructions {
  /**
   * User, project and local files, lowest precedence first. An imported file is listed right after
   * the file importing it (with `importedFrom`) for inspection; its text is already expanded in
   * place inside the importer, so it is not rendered again.
   */
  files: InstructionFile[]
  /** Skipped files and imports, each saying why. */
  warnings: string[]
  /** The top of the project walk: the folder holding .git, or the project itself. */
  repositoryRoot: string
}

/**
 * Discovers and reads instruction files as spec 003's table says, with Claude Code's memory files
 * under `compat.claude`: user (~/.claude/CLAUDE.md, then AGENTS.md in the config folder), project
 * (each folder from the repository root down to the project: CLAUDE.md, .claude/CLAUDE.md, then
 * AGENTS.md), local (CLAUDE.local.md in each of those folders, then AGENTS.local.md in the project).
 * The walk up stops at the folder holding .git and never includes the home folder. Each file is cut
 * at 64 KiB and its HTML comments are stripped; `@path` imports are expanded in place (at most
 * {@link INSTRUCTION_MAX_IMPORT_HOPS} hops, as in Claude Code; a file is never loaded twice);
 * project and local files that resolve outside the repository are skipped. Never throws.
 */
export async function loadInstructions(options: InstructionDiscoveryOptions): Promise<LoadedInstructions> {
  const compat = options.compatClaude ?? true
  const projectRoot = (await realPathOrNull(resolve(options.projectRoot))) ?? resolve(options.projectRoot)
  const home = (await realPathOrNull(resolve(options.home))) ?? resolve(options.home)
  const folders = await projectFolders(projectRoot, home)
  const repositoryRoot = folders[0] ?? projectRoot
  const context: LoadContext = {
    projectRoot,
    repositoryRoot,
    home,
    seen: new Set(),
    warnings: [],
    files: [],
    ...(options.isReadDenied ? { isReadDenied: options.isReadDenied } : {}),
  }

  const userDir = options.configDir ?? userConfigDir(home)
  if (options.userFiles !== false) {
    if (compat) await loadFile(context, join(home, '.claude', 'CLAUDE.md'), 'user', null)
    await loadFile(context, join(userDir, 'AGENTS.md'), 'user', null)
  }
  // Folder by folder, root first, each folder's CLAUDE.local.md right after its own files, as
  // Claude Code orders them (a folder's local notes before the next folder's CLAUDE.md).
  for (const folder of folders.length > 0 ? folders : [projectRoot]) {
    const inRepository = folders.length > 0
    if (compat && inRepository) {
      await loadFile(context, join(folder, 'CLAUDE.md'), 'project', repositoryRoot)
      await loadFile(context, join(folder, '.claude', 'CLAUDE.md'), 'project', repositoryRoot)
    }
    if (inRepository) await loadFile(context, join(folder, 'AGENTS.md'), 'project', repositoryRoot)
    if (compat) await loadFile(context, join(folder, 'CLAUDE.local.md'), 'local', repositoryRoot)
  }
  await loadFile(context, join(projectRoot, 'AGENTS.local.md'), 'local', repositoryRoot)
  return { files: context.files, warnings: context.warnings, repositoryRoot }
}

/**
 * Reads the nested instruction files (CLAUDE.md with compat, then AGENTS.md) in the given folders,
 * relative to the agent's root, for first-touch announcements. Paths in the result are relative to
 * the root, as `AnnouncementTracker.take` expects. Files resolving outside the root are skipped.
 */
export async function loadNestedInstructions(options: {
  root: string
  folders: readonly string[]
  home: string
  compatClaude?: boolean
  /** Whether a `Read(...)` deny rule covers a path: such files are not loaded (a warning says so). */
  isReadDenied?: (path: string) => boolean
}): Promise<{ files: InstructionFile[]; warnings: string[] }> {
  const root = (await realPathOrNull(resolve(options.root))) ?? resolve(options.root)
  const home = (await realPathOrNull(resolve(options.home))) ?? resolve(options.home)
  const context: LoadContext = {
    projectRoot: root,
    repositoryRoot: root,
    home,
    seen: new Set(),
    warnings: [],
    files: [],
    ...(options.isReadDenied ? { isReadDenied: options.isReadDenied } : {}),
  }
  const names = (options.compatClaude ?? true) ? ['CLAUDE.md', 'AGENTS.md'] : ['AGENTS.md']
  for (const folder of [...new Set(options.folders)].sort()) {
    if (folder === '' || folder === '.') continue
    for (const name of names) await loadFile(context, join(root, folder, name), 'nested', root)
  }
  // Imported files are already expanded inside the nested file that imports them.
  return {
    files: context.files.filter((file) => file.importedFrom === undefined),
    warnings: context.warnings,
  }
}

/** The project folders from the repository root down to the project, never the home folder. */
async function projectFolders(projectRoot: string, home: string): Promise<string[]> {
  const chain: string[] = []
  let folder = projectRoot
  for (;;) {
    if (folder === home)
      return chain.length > 0 && (await pathExists(join(home, '.git')))
        ? chain.reverse()
        : onlyProject(projectRoot, home)
    chain.push(folder)
    if (await pathExists(join(folder, '.git'))) return chain.reverse()
    const parent = dirname(folder)
    if (parent === folder) return onlyProject(projectRoot, home)
    folder = parent
  }
}

function onlyProject(projectRoot: string, home: string): string[] {
  return projectRoot === home ? [] : [projectRoot]
}

interface LoadContext {
  projectRoot: string
  repositoryRoot: string
  home: string
  /** Real paths already loaded, so a file is never loaded twice. */
  seen: Set<string>
  warnings: string[]
  files: InstructionFile[]
  isReadDenied?: (path: string) => boolean
}

/**
 * Loads one file and then its imports, depth-first, and returns the file's text with the imports
 * expanded in place (undefined when it was not loaded). `boundary` (for project, local and nested
 * files) is the folder the file and its imports must resolve inside; null for user files.
 */
async function loadFile(
  context: LoadContext,
  path: string,
  scope: InstructionScope,
  boundary: string | null,
  importedFrom?: { display: string; hops: number },
): Promise<string | undefined> {
  const real = await realPathOrNull(path)
  if (real === null) {
    if (importedFrom)
      context.warnings.push(
        `${importedFrom.display}: imported file ${path} does not exist; fix or remove the @import.`,
      )
    return undefined
  }
  if (context.seen.has(real)) return undefined
  const display = displayPath(path, context.projectRoot, context.home, context.repositoryRoot)
  // A deny rule holds for instructions too (issue 34): on the path as written and where it leads.
  if (context.isReadDenied?.(resolve(path)) || context.isReadDenied?.(real)) {
    context.warnings.push(
      `${display}: not loaded${importedFrom ? ` (imported by ${importedFrom.display})` : ''}: a Read deny rule covers ${real === resolve(path) ? 'it' : `it (it leads to ${real})`}.`,
    )
    return undefined
  }
  if (boundary !== null && !isInside(boundary, real)) {
    context.warnings.push(`${display}: skipped because it resolves outside the project (${real}).`)
    return undefined
  }
  let bytes: Uint8Array
  try {
    if (!(await stat(real)).isFile()) return undefined
    bytes = await readFile(real)
  } catch (error) {
    context.warnings.push(`${display}: could not be read (${String(error)}).`)
    return undefined
  }
  context.seen.add(real)
  const decoded = decodeInstructionBytes(bytes)
  const text = stripHtmlComments(decoded.text)
  const file: InstructionFile = { scope, path: display, content: text, truncated: decoded.truncated }
  if (importedFrom) file.importedFrom = importedFrom.display
  context.files.push(file)

  const hops = importedFrom?.hops ?? 0
  const imports = findImports(text)
  if (imports.length === 0) return text
  if (hops >= INSTRUCTION_MAX_IMPORT_HOPS) {
    context.warnings.push(
      `${display}: imports not followed; @imports go at most ${INSTRUCTION_MAX_IMPORT_HOPS} files deep.`,
    )
    return text
  }
  const loaded = new Map<string, string>()
  for (const target of imports) {
    const absolute = target.startsWith('~/')
      ? join(context.home, target.slice(2))
      : isAbsolute(target)
        ? target
        : resolve(dirname(path), target)
    const content = await loadFile(context, absolute, scope, boundary, { display, hops: hops + 1 })
    if (content !== undefined) loaded.set(target, content.trim())
  }
  file.content = expandImports(text, loaded)
  return file.content
}
