import { isAbsolute, join, resolve } from 'node:path'
import type { InstructionFile } from '@z-engine/context'
import type { InstructionsLoadedFields } from '../hooks/types.js'

/** A shown path (project-relative, `~/…` or absolute) as the absolute path hooks read. */
function absolutePath(shown: string, projectRoot: string, home: string): string {
  if (shown.startsWith('~/')) return join(home, shown.slice(2))
  return isAbsolute(shown) ? shown : resolve(projectRoot, shown)
}

/**
 * The InstructionsLoaded input for each file loaded as a session starts, in load order: Claude
 * Code's `memory_type` for its scope, `include` with the importer for an `@path` import.
 */
export function sessionStartLoads(
  files: readonly InstructionFile[],
  projectRoot: string,
  home: string,
): InstructionsLoadedFields[] {
  const memoryType = (file: InstructionFile): InstructionsLoadedFields['memoryType'] => {
    switch (file.scope) {
      case 'user':
        return 'User'
      case 'local':
        return 'Local'
      case 'project':
      case 'nested':
        return 'Project'
      default: {
        const unknownScope: never = file.scope
        return unknownScope
      }
    }
  }
  return files.map((file) => ({
    filePath: absolutePath(file.path, projectRoot, home),
    memoryType: memoryType(file),
    loadReason: file.importedFrom !== undefined ? 'include' : 'session_start',
    ...(file.importedFrom !== undefined
      ? { parentFilePath: absolutePath(file.importedFrom, projectRoot, home) }
      : {}),
  }))
}
