import { dirname, isAbsolute, join, relative, resolve } from 'node:path'
import { AnnouncementTracker, nestedFolders, type Rule, renderRule } from '@z-engine/context'
import { reminderText } from '@z-engine/prompts'
import type { ToolUseBlock } from '@z-engine/protocol'
import type { RepoMapService } from '../repo-map/repo-map-service.js'
import type { InstructionsLoadedFields } from '../workspace/hooks/types.js'
import { loadNestedInstructions } from '../workspace/instructions/instructions-load.js'

/** Input fields that name a file or folder a tool touches (Claude Code's names). */
const PATH_FIELDS = ['file_path', 'notebook_path', 'path', 'filePath'] as const

/** The paths (absolute) a batch's calls named in their input, plus the files they changed. */
export function touchedPaths(
  calls: readonly ToolUseBlock[],
  changedFiles: readonly string[],
  cwd: string,
): string[] {
  const paths = new Set<string>(changedFiles)
  for (const call of calls) {
    for (const field of PATH_FIELDS) {
      const value = call.input[field]
      if (typeof value === 'string' && value !== '')
        paths.add(isAbsolute(value) ? value : resolve(cwd, value))
    }
  }
  return [...paths]
}

/**
 * Per agent: announces nested AGENTS.md/CLAUDE.md files and glob-scoped rules the first time the
 * agent touches a matching path (spec 003), and tells the repo map which files were touched.
 */
export class ContextTracker {
  readonly #announcements = new AnnouncementTracker()

  constructor(
    private readonly options: {
      root: string
      home: string
      compatClaude: boolean
      /** Whether a Read deny rule covers a path: nested instruction files it covers are not announced. */
      isReadDenied?: (path: string) => boolean
      rules: readonly Rule[]
      repoMap: RepoMapService | undefined
      /** InstructionsLoaded hooks, told of each nested file and glob rule as it is announced. */
      onLoaded?: (load: InstructionsLoadedFields) => Promise<void>
    },
  ) {}

  /** Replaces the glob-scoped rules after a settings reload (ones already announced stay announced). */
  setRules(rules: readonly Rule[]): void {
    this.options.rules = rules
  }

  /** Reminder texts for what the batch touched for the first time (empty when nothing is new). */
  async afterBatch(absolutePaths: readonly string[]): Promise<string[]> {
    this.options.repoMap?.touch(absolutePaths)
    const touched = absolutePaths
      .map((path) => relative(this.options.root, path))
      .filter((path) => path !== '' && !path.startsWith('..') && !isAbsolute(path))
    if (touched.length === 0) return []
    const folders = [...new Set(touched.flatMap((path) => nestedFolders(path)))]
    const nested =
      folders.length > 0
        ? await loadNestedInstructions({
            root: this.options.root,
            folders,
            home: this.options.home,
            compatClaude: this.options.compatClaude,
            ...(this.options.isReadDenied ? { isReadDenied: this.options.isReadDenied } : {}),
          })
        : { files: [], warnings: [] }
    const announcements = this.#announcements.take({
      touched,
      nestedFiles: nested.files,
      rules: this.options.rules,
    })
    if (this.options.onLoaded)
      for (const announcement of announcements)
        await this.options.onLoaded(this.#loaded(announcement, touched))
    return announcements.map((announcement) =>
      announcement.kind === 'nested'
        ? reminderText('nestedInstructions', {
            path: announcement.file.path,
            content: announcement.file.content,
          })
        : renderRule(announcement.rule),
    )
  }
  /** Claude Code's InstructionsLoaded input for one announcement (paths absolute). */
  #loaded(
    announcement: ReturnType<AnnouncementTracker['take']>[number],
    touched: readonly string[],
  ): InstructionsLoadedFields {
    const { root, home } = this.options
    const absolute = (shown: string) =>
      shown.startsWith('~/') ? join(home, shown.slice(2)) : isAbsolute(shown) ? shown : resolve(root, shown)
    if (announcement.kind === 'nested') {
      const folder = dirname(announcement.file.path)
      const trigger = touched.find((path) => path.startsWith(`${folder}/`))
      return {
        filePath: absolute(announcement.file.path),
        memoryType: 'Project',
        loadReason: 'nested_traversal',
        ...(trigger !== undefined ? { triggerFilePath: resolve(root, trigger) } : {}),
      }
    }
    const { rule } = announcement
    return {
      filePath: absolute(rule.path),
      memoryType: rule.path.startsWith('~/') ? 'User' : 'Project',
      loadReason: 'path_glob_match',
      globs: [...rule.globs],
    }
  }
}
