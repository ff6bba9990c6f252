import picomatch from 'picomatch'
import { normalizePath } from '../paths/normalize.js'
import { TOOLCHAIN_FILES } from '../paths/protected.js'
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
  ...TOOLCHAIN_FILES,
]

/** Targets that stand for names a tree of unknown names may bring, not names the line shows. */
const POSSIBLE = new WeakSet<Target>()

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
      return [`${dir}/${name}`, ...inside.map((candidate) => `${dir}/${candidate}`)].map((path) => ({
        kind: 'path',
        path: normalizePath(path),
      }))
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
