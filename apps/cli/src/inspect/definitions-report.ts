import type { DefinitionIssue, DefinitionLayer, DefinitionWarning } from '@z-engine/engine/definitions'
import { EXIT } from '../cli-error.js'
import { oneLine, printJson, printLines } from '../output.js'
import type { InspectContext } from './inspect-context.js'

/** The fields every definition kind shares, as the engine's loaders return them. */
interface Listed {
  name: string
  description: string
  source: { layer: DefinitionLayer; path: string }
  warnings: readonly DefinitionWarning[]
}

/**
 * Prints what a definition loader returned: with --json every parsed field as loaded (plus the
 * shadowed definitions and per-file errors, each with a stable `code`); as text one line per definition, then the problems.
 * A broken file never hides the others; exit code 1 when any file was skipped.
 */
export function reportDefinitions<D extends Listed>(
  context: InspectContext,
  kind: string,
  loaded: { definitions: readonly D[]; shadowed: readonly D[]; errors: readonly DefinitionIssue[] },
): number {
  const code = loaded.errors.length > 0 ? EXIT.failed : EXIT.ok
  if (context.json) {
    printJson(context.io, {
      projectRoot: context.projectRoot,
      [kind]: loaded.definitions,
      shadowed: loaded.shadowed,
      errors: loaded.errors,
    })
    return code
  }
  const width = Math.max(8, ...loaded.definitions.map((definition) => definition.name.length))
  const lines = loaded.definitions.map(
    (definition) =>
      `${definition.name.padEnd(width)}  ${definition.source.layer.padEnd(13)}  ${oneLine(definition.description, 60)}  (${definition.source.path})`,
  )
  if (lines.length === 0) lines.push(`No ${kind} found for ${context.projectRoot}.`)
  for (const definition of loaded.definitions)
    for (const warning of definition.warnings)
      lines.push(`warning: ${definition.source.path}: ${warning.message} [${warning.code}]`)
  for (const shadowed of loaded.shadowed)
    lines.push(`shadowed: ${shadowed.name} from ${shadowed.source.layer} (${shadowed.source.path})`)
  for (const error of loaded.errors)
    lines.push(
      `error: ${error.path}${error.line !== undefined ? `:${error.line}` : ''} [${error.layer}]: ${error.message} [${error.code}]`,
    )
  printLines(context.io, lines)
  return code
}
