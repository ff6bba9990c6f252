import { basename, dirname, sep } from 'node:path'
import { BUILTIN_AGENTS, BUILTIN_COMMANDS } from '@z-engine/prompts'
import { definitionFolders } from './folders.js'
import { type ParseResult, parseAgentDefinition } from './parse-agent.js'
import { parseCommandDefinition, parseSkillDefinition } from './parse-command.js'
import { type DefinitionFile, readDefinitionFiles } from './read-files.js'
import type {
  AgentDefinition,
  CommandDefinition,
  DefinitionBase,
  DefinitionIssue,
  DefinitionLayer,
  DefinitionRoots,
  LoadedDefinitions,
  SkillDefinition,
} from './types.js'

/**
 * The agent registry's definitions: the built-ins, replaced by same-named custom ones from the four
 * folders (spec 003). A broken file is reported and skipped; it never hides the others.
 */
export async function loadAgentDefinitions(
  roots: DefinitionRoots,
): Promise<LoadedDefinitions<AgentDefinition>> {
  const builtins = builtinAgentDefinitions()
  // Claude Code scans agent folders recursively; the name comes from the frontmatter only.
  const custom = await loadKind(roots, 'agents', 'markdownRecursive', (file, layer) =>
    parseAgentDefinition(file.text, { layer, path: file.path }),
  )
  return merge([...builtins, ...custom.parsed], custom.errors)
}

/**
 * Custom commands from the command folders (project `.z-engine` > project `.claude` > user >
 * `~/.claude`), and every skill as a `/name` command unless `user-invocable: false` (Claude Code:
 * a skill replaces a same-named command). Skill files' own problems are reported by the skill loader.
 */
export async function loadCommandDefinitions(
  roots: DefinitionRoots,
): Promise<LoadedDefinitions<CommandDefinition>> {
  const [custom, skills] = await Promise.all([
    loadKind(roots, 'commands', 'markdownRecursive', (file, layer) =>
      parseCommandDefinition(file.text, { layer, path: file.path }, commandName(file.relativePath)),
    ),
    loadSkillDefinitions(roots),
  ])
  const skillCommands = skills.definitions
    .filter((skill) => skill.userInvocable)
    .map((skill) => skillCommand(skill))
  return merge([...custom.parsed, ...skillCommands], custom.errors)
}

/** A skill as the `/name` command that runs its instructions with the arguments substituted. */
export function skillCommand(skill: SkillDefinition): CommandDefinition {
  const {
    baseDir,
    userInvocable: _userInvocable,
    license: _license,
    metadata: _metadata,
    paths: _paths,
    ...rest
  } = skill
  const command: CommandDefinition = { ...rest, skillDir: baseDir }
  return command
}

/** Skills: `<folder>/<name>/SKILL.md` in the skill folders, same precedence as agents. */
export async function loadSkillDefinitions(
  roots: DefinitionRoots,
): Promise<LoadedDefinitions<SkillDefinition>> {
  const custom = await loadKind(roots, 'skills', 'skill', (file, layer) => {
    const baseDir = dirname(file.path)
    return parseSkillDefinition(file.text, { layer, path: file.path }, basename(baseDir), baseDir)
  })
  return merge(custom.parsed, custom.errors)
}

/** The five built-in agents, parsed from `@z-engine/prompts`. */
export function builtinAgentDefinitions(): AgentDefinition[] {
  return BUILTIN_AGENTS.map((file) => {
    const result = parseAgentDefinition(file.markdown, { layer: 'builtin', path: file.path })
    // The prompts package's own test parses these; a failure here is a packaging bug.
    if (result.ok !== true) throw new Error(`Built-in agent ${file.path} does not parse`)
    return result.definition
  })
}

/** The prompt built-ins (`/init`, `/review`, `/commit`), parsed from `@z-engine/prompts`. */
export function builtinCommandDefinitions(): CommandDefinition[] {
  return BUILTIN_COMMANDS.map((file) => {
    const result = parseCommandDefinition(file.markdown, { layer: 'builtin', path: file.path }, file.name)
    if (result.ok !== true) throw new Error(`Built-in command ${file.path} does not parse`)
    return result.definition
  })
}

/** `git/commit.md` → `git:commit` (subfolders namespace a command, as in Claude Code). */
export function commandName(relativePath: string): string {
  return relativePath.replace(/\.md$/, '').split(sep).join(':')
}

async function loadKind<Definition extends DefinitionBase>(
  roots: DefinitionRoots,
  kind: 'agents' | 'commands' | 'skills',
  shape: 'markdown' | 'markdownRecursive' | 'skill',
  parse: (file: DefinitionFile, layer: DefinitionLayer) => ParseResult<Definition>,
): Promise<{ parsed: Definition[]; errors: DefinitionIssue[] }> {
  const folders = definitionFolders(kind, roots)
  const scans = await Promise.all(folders.map((folder) => readDefinitionFiles(folder, shape)))
  const parsed: Definition[] = []
  const errors: DefinitionIssue[] = []
  scans.forEach((scan, index) => {
    const folder = folders[index]!
    const layer = folder.layer
    errors.push(...scan.errors)
    for (const file of scan.files) {
      if (roots.isReadDenied?.(file.path)) {
        errors.push({
          code: 'read_denied',
          path: file.path,
          layer,
          message: `${file.path} is not loaded: a Read deny rule covers it.`,
        })
        continue
      }
      const result = parse(file, layer)
      if (result.ok === 'ignored') continue
      if (result.ok && folder.plugin !== undefined) {
        // Claude Code's namespacing: `/formatter:fix`, agent type `formatter:reviewer`.
        result.definition.name = `${folder.plugin.namespace}:${result.definition.name}`
        result.definition.plugin = folder.plugin.id
      }
      if (result.ok) parsed.push(result.definition)
      else
        errors.push(
          result.line === undefined
            ? { code: result.code, path: file.path, layer, message: result.error }
            : { code: result.code, path: file.path, layer, message: result.error, line: result.line },
        )
    }
  })
  return { parsed, errors }
}

/** Later entries replace earlier same-named ones; the replaced ones are kept as `shadowed`. */
function merge<Definition extends DefinitionBase>(
  ordered: Definition[],
  errors: DefinitionIssue[],
): LoadedDefinitions<Definition> {
  const byName = new Map<string, Definition>()
  const shadowed: Definition[] = []
  for (const definition of ordered) {
    const previous = byName.get(definition.name)
    if (previous !== undefined) shadowed.push(previous)
    byName.set(definition.name, definition)
  }
  const definitions = [...byName.values()].sort((a, b) => compareNames(a.name, b.name))
  return { definitions, shadowed, errors }
}

/** Names of lowercase letters, digits and hyphens, for which code-unit order is `localeCompare`'s. */
const SIMPLE_NAME = /^[a-z0-9-]*$/

/**
 * `localeCompare` order without its first-call cost where it cannot differ: the first call loads
 * ICU's collator, ≈10 ms of every session start before its first request (issue 17), and built-in
 * and most custom names are simple. Any other name is compared with `localeCompare` as before.
 */
export function compareNames(a: string, b: string): number {
  if (SIMPLE_NAME.test(a) && SIMPLE_NAME.test(b)) return a < b ? -1 : a > b ? 1 : 0
  return a.localeCompare(b)
}
