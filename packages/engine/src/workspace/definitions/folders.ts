import { join } from 'node:path'
import type { DefinitionLayer, DefinitionRoots } from './types.js'

/** One folder to scan and the layer its files belong to. */
export interface DefinitionFolder {
  layer: DefinitionLayer
  dir: string
  /** Project folders: files whose real path leaves the project are skipped. */
  confineTo?: string
  /** A plugin's folder (or single file): its definitions are named `<namespace>:<name>`. */
  plugin?: { id: string; namespace: string }
  /** `dir` is one definition file (a plugin's custom path may name a file). */
  single?: boolean
}

/** The folders holding `kind` definitions, lowest precedence first (spec 003). */
export function definitionFolders(
  kind: 'agents' | 'commands' | 'skills',
  roots: DefinitionRoots,
): DefinitionFolder[] {
  const folders: DefinitionFolder[] = []
  for (const plugin of roots.plugins ?? [])
    for (const dir of plugin[kind])
      folders.push({
        layer: 'plugin',
        dir,
        plugin: { id: plugin.id, namespace: plugin.name },
        ...(dir.endsWith('.md') ? { single: true } : {}),
      })
  if (roots.userFiles !== false) {
    if (roots.compatClaude) folders.push({ layer: 'userClaude', dir: join(roots.home, '.claude', kind) })
    folders.push({ layer: 'user', dir: join(roots.configDir, kind) })
  }
  if (roots.compatClaude) {
    folders.push({
      layer: 'projectClaude',
      dir: join(roots.projectRoot, '.claude', kind),
      confineTo: roots.projectRoot,
    })
  }
  folders.push({
    layer: 'project',
    dir: join(roots.projectRoot, '.z-engine', kind),
    confineTo: roots.projectRoot,
  })
  return folders
}
