import { stat } from 'node:fs/promises'
import { isAbsolute, join } from 'node:path'
import { toolDescription } from '@z-engine/prompts'
import picomatch from 'picomatch'
import { budgetOutput } from '../output-budget.js'
import { displayPath, resolveInputPath } from '../paths.js'
import { startInsideDecided } from '../real-path.js'
import { errorMessage, errorResult, textResult } from '../results.js'
import type { GrepEngine } from '../search/grep-search.js'
import { listFiles } from '../search/list-files.js'
import { newestFirst } from '../search/mtime-order.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'

/** Glob's input (Claude Code's shape). */
export type GlobInput = { pattern: string; path?: string }

/** Paths returned at most; a model narrows the pattern rather than paging. */
export const MAX_GLOB_RESULTS = 100

/** A Glob tool bound to a file-listing engine (`auto`: `rg --files` when on PATH). */
export function createGlobTool(engine: GrepEngine = 'auto'): Tool<GlobInput> {
  return {
    name: 'Glob',
    description: () => toolDescription('Glob'),
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'The glob pattern, e.g. "**/*.ts" or "src/**/*.test.ts"' },
        path: { type: 'string', description: 'The folder to search in (default: the cwd)' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    action: (input, ctx) => actionFor('Glob', input, ctx),
    title: (input, ctx) => {
      const where =
        typeof input.path === 'string' && input.path !== ''
          ? ` in ${displayPath(resolveInputPath(input.path, ctx), ctx)}`
          : ''
      return `Glob ${String(input.pattern ?? '')}${where}`
    },
    preview: async () => undefined,
    call: async (input, ctx, signal) => {
      if (typeof input.pattern !== 'string' || input.pattern === '')
        return errorResult('invalid_input', 'pattern must be a non-empty string.')
      const base =
        typeof input.path === 'string' && input.path !== '' ? resolveInputPath(input.path, ctx) : ctx.cwd
      const { root, pattern } = splitPattern(input.pattern, base, ctx.home)
      // The walk follows no links; the folder it starts in must really be one the decision saw.
      const outside = startInsideDecided(join(root, fixedPrefix(pattern)), ctx)
      if (outside) return { ok: false, error: outside }
      const info = await stat(root).catch(() => undefined)
      if (!info)
        return errorResult('not_found', `Folder does not exist: ${root}. Give an existing folder as path.`)
      if (!info.isDirectory())
        return errorResult(
          'not_a_directory',
          `${root} is a file, not a folder. Use Read to read it, or give its folder as path.`,
        )
      try {
        // Walk only below the pattern's fixed leading folders (`src/` of `src/**/*.ts`).
        const fixed = fixedPrefix(pattern)
        const listed = await listFiles(root, fixed, engine, signal)
        if (!listed.ok) return errorResult('search_failed', listed.message)
        const matches = picomatch(pattern, { dot: true })
        const paths = listed.files
          .filter((file) => matches(file))
          .map((file) => join(root, file))
          .filter((path) => !ctx.isReadDenied?.(path))
        const timed = await newestFirst(paths, (path) => path)
        const details = { root, matches: timed.length }
        if (timed.length === 0) {
          return textResult(
            `No files found for ${pattern} in ${root} (files ignored by .gitignore are not listed; Bash find lists them).`,
            { details },
          )
        }
        const shown = timed.slice(0, MAX_GLOB_RESULTS)
        const note =
          timed.length > MAX_GLOB_RESULTS
            ? `\n(Showing the ${MAX_GLOB_RESULTS} most recently modified of ${timed.length} files. Use a more specific pattern or path.)`
            : ''
        return textResult(await budgetOutput(ctx, shown.join('\n') + note, 'search', 'glob-results'), {
          details,
        })
      } catch (error) {
        return errorResult('search_failed', `Glob failed: ${errorMessage(error)}`)
      }
    },
  }
}

/** Glob with `rg --files` when on PATH, else the built-in walk. */
export const globTool = createGlobTool()

/**
 * An absolute pattern, one starting at `~`, or one climbing with `..` is split into the folder it
 * names and the rest, so `/etc/*.conf` lists `/etc`.
 */
function splitPattern(pattern: string, base: string, home: string): { root: string; pattern: string } {
  if (!(isAbsolute(pattern) || pattern.startsWith('~') || pattern.split('/').includes('..')))
    return { root: base, pattern }
  const segments = pattern.split('/')
  const fixed: string[] = []
  while (segments.length > 1 && !/[*?[\]{}!]/.test(segments[0]!)) fixed.push(segments.shift()!)
  const prefix = fixed.join('/') || (pattern.startsWith('/') ? '/' : '.')
  return {
    root: resolveInputPath(prefix, { cwd: base, home, projectRoot: base }),
    pattern: segments.join('/'),
  }
}

/** The leading folders of a pattern that contain no glob characters. */
function fixedPrefix(pattern: string): string {
  const segments = pattern.split('/')
  const fixed: string[] = []
  for (const segment of segments.slice(0, -1)) {
    if (/[*?[\]{}!()+@]/.test(segment)) break
    fixed.push(segment)
  }
  return fixed.join('/')
}
