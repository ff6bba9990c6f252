/**
 * The system prompt, built stable parts first so the cached prefix survives from request to request
 * (spec 003 "Prompt caching").
 */

/** The layers of the system prompt, in the order they are sent. */
export const SYSTEM_SECTION_KINDS = [
  'base',
  'environment',
  'instructions',
  'skills',
  'outputStyle',
  'repoMap',
  'note',
] as const

/** One layer of the system prompt. */
export type SystemSectionKind = (typeof SYSTEM_SECTION_KINDS)[number]

/**
 * One section of the system prompt. Structurally a model request's system section (`text`,
 * `cacheable`), plus the layer it came from for `/context`.
 */
export interface SystemSection {
  kind: SystemSectionKind
  text: string
  cacheable: boolean
}

/** The parts of the system prompt; absent or blank parts are left out. */
export interface SystemParts {
  /** The base prompt (or the agent definition's prompt). */
  base: string
  /** The environment snapshot taken when the session opened (see `renderEnvironment`). */
  environment?: string
  /** User, project and local instructions plus alwaysApply rules (see `renderInstructions`). */
  instructions?: string
  /** The skills list. */
  skills?: string
  /** The active output style. */
  outputStyle?: string
  /** The repository map, once built (see `renderRepoMap`). */
  repoMap?: string
  /** A per-request note (e.g. a worktree agent's location); sent last, outside the cache. */
  note?: string
}

/** Builds the system sections stable-first; every part but the note is cacheable. */
export function buildSystem(parts: SystemParts): SystemSection[] {
  const sections: SystemSection[] = []
  for (const kind of SYSTEM_SECTION_KINDS) {
    const text = parts[kind]
    if (text === undefined || text.trim() === '') continue
    sections.push({ kind, text, cacheable: kind !== 'note' })
  }
  return sections
}

/** What the environment snapshot shows; taken once when the session opens so it never changes. */
export interface EnvironmentSnapshot {
  /** The agent's root directory. */
  cwd: string
  platform: string
  /** The date the session opened, `YYYY-MM-DD` (a clock time would break the cache every request). */
  date: string
  isGitRepository: boolean
  /** The branch when the session opened. */
  gitBranch?: string
  shell?: string
  model?: string
  /** Extra directories the session may use (`/add-dir`). */
  additionalDirectories?: readonly string[]
}

/** Renders the environment snapshot section. */
export function renderEnvironment(snapshot: EnvironmentSnapshot): string {
  const lines = [
    '<environment>',
    `Working directory: ${snapshot.cwd}`,
    `Platform: ${snapshot.platform}`,
    `Date: ${snapshot.date}`,
    `Git repository: ${snapshot.isGitRepository ? 'yes' : 'no'}`,
  ]
  if (snapshot.gitBranch) lines.push(`Git branch: ${snapshot.gitBranch}`)
  if (snapshot.shell) lines.push(`Shell: ${snapshot.shell}`)
  if (snapshot.model) lines.push(`Model: ${snapshot.model}`)
  if (snapshot.additionalDirectories && snapshot.additionalDirectories.length > 0) {
    lines.push(`Additional directories: ${snapshot.additionalDirectories.join(', ')}`)
  }
  lines.push('</environment>')
  return lines.join('\n')
}
