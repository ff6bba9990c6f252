import picomatch from 'picomatch'
import type { PathFacts } from '../paths/facts.js'
import { normalizePath } from '../paths/normalize.js'
import { TOOL_CONFIG_FILES, TOOLCHAIN_FILES } from '../paths/protected.js'
import type { Target } from './target.js'
import type { ShellWord } from './types.js'

/**
 * Names (relative paths) a copy, move or extraction could create that the policy protects: each
 * stands for the protected places a tree with unknown names may bring (`cp -r vendor/. .` may
 * create `.git/commondir`, `tar -x` may create `.husky/pre-commit`).
 */
const PROTECTED_CANDIDATES = [
  '.git/config',
  '.husky/pre-commit',
  '.claude/settings.json',
  '.z-engine/settings.toml',
  '.mcp.json',
  '.cargo/config.toml',
  '.vscode/tasks.json',
  '.vscode/launch.json',
  '.idea/workspace.xml',
  '.run/x.run.xml',
  '.mise/config.toml',
  '.vscode/settings.json',
  '.zed/settings.json',
  '.helix/languages.toml',
  '.devcontainer/devcontainer.json',
  '.yarn/releases/yarn.cjs',
  '.config/mise/config.toml',
  ...TOOLCHAIN_FILES,
  ...TOOL_CONFIG_FILES,
]

/** Targets that stand for names a tree of unknown names may bring, not names the line shows. */
const POSSIBLE = new WeakSet<Target>()

/** Targets a copy or move names (`out/vendor`) → the source folder whose names it brings along. */
const COPIED_FROM = new WeakMap<Target, string>()

/** Whether a target is a name a copy or extraction may create (its reason says "may create"). */
export function isPossibleName(target: Target): boolean {
  return POSSIBLE.has(target)
}

/** The protected places a tree with unknown names copied or extracted into `dir` may create. */
export function treeInto(dir: string): Target[] {
  return PROTECTED_CANDIDATES.map((name) => {
    const target: Target = { kind: 'path', path: normalizePath(`${dir}/${name}`) }
    POSSIBLE.add(target)
    return target
  })
}

/** `X/.`, `.`, `X/..`: a source whose contents land in the destination, not the source itself. */
export function namesContents(word: ShellWord): boolean {
  return /(^|\/)\.\.?\/*$/.test(word.value)
}

/**
 * What copying or moving `source` into the folder `dir` creates: `dir/<name>` for a named source,
 * every protected candidate a glob's last segment could match (`vendor/.*` may be `.husky`), and
 * every protected candidate for a source whose contents are copied (`vendor/.`).
 */
export function createdInto(source: ShellWord, sourceTarget: Target, dir: string): Target[] {
  if (namesContents(source)) return treeInto(dir)
  switch (sourceTarget.kind) {
    case 'path': {
      const name = sourceTarget.path.slice(sourceTarget.path.lastIndexOf('/') + 1)
      if (name === '') return treeInto(dir)
      // A folder such as `.cargo` or `.vscode` brings the protected files it may hold.
      const inside = PROTECTED_CANDIDATES.filter((candidate) =>
        candidate.toLowerCase().startsWith(`${name.toLowerCase()}/`),
      )
      const named: Target = { kind: 'path', path: normalizePath(`${dir}/${name}`) }
      COPIED_FROM.set(named, sourceTarget.path)
      return [
        named,
        ...inside.map((candidate): Target => ({ kind: 'path', path: normalizePath(`${dir}/${candidate}`) })),
      ]
    }
    case 'glob': {
      const last = source.value.replace(/\/+$/, '').split('/').pop() ?? ''
      // Without dotglob a pattern matches a leading dot only when it starts with one.
      const matches = picomatch(last, { dot: last.startsWith('.') })
      return PROTECTED_CANDIDATES.filter((candidate) => matches(candidate.split('/')[0] as string)).map(
        (candidate) => {
          const target: Target = { kind: 'path', path: normalizePath(`${dir}/${candidate}`) }
          POSSIBLE.add(target)
          return target
        },
      )
    }
    case 'unknown':
      return treeInto(dir)
    default: {
      const unreachable: never = sourceTarget
      return unreachable
    }
  }
}

/**
 * The names a copied or moved folder brings (issue 34): for a target a copy names (`out/vendor`),
 * every name inside its source folder under it — and under its parent too (`out/…`: a new `out`
 * becomes the copy), unless that parent is `root`, which exists. A folder too large to walk brings
 * every protected candidate. Nothing without facts (pure callers) or for a target no copy named.
 */
export function copiedTree(target: Target, facts: PathFacts | undefined, root: string): Target[] {
  const source = COPIED_FROM.get(target)
  if (source === undefined || target.kind !== 'path' || facts?.treeNames === undefined) return []
  const parent = target.path.slice(0, target.path.lastIndexOf('/')) || '/'
  const prefixes = parent === root ? [target.path] : [target.path, parent]
  const names = facts.treeNames(source)
  if (names === undefined) return prefixes.flatMap((prefix) => treeInto(prefix))
  return prefixes.flatMap((prefix) =>
    names.map((name) => {
      const created: Target = { kind: 'path', path: normalizePath(`${prefix}/${name}`) }
      POSSIBLE.add(created)
      return created
    }),
  )
}
