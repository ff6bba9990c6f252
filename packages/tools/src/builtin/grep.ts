import { stat } from 'node:fs/promises'
import { toolDescription } from '@z-engine/prompts'
import { budgetOutput } from '../output-budget.js'
import { displayPath, resolveInputPath } from '../paths.js'
import { realPathForOpen, realPathOnDisk } from '../real-path.js'
import { errorMessage, errorResult, textResult } from '../results.js'
import { renderEntries } from '../search/grep-render.js'
import { type GrepEngine, searchFiles } from '../search/grep-search.js'
import { newestFirst } from '../search/mtime-order.js'
import { splitGlobInput } from '../search/overrides.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'

/** Grep's input (Claude Code's shape). */
export type GrepInput = {
  pattern: string
  path?: string
  glob?: string
  type?: string
  output_mode?: 'content' | 'files_with_matches' | 'count'
  '-B'?: number
  '-A'?: number
  '-C'?: number
  '-n'?: boolean
  '-i'?: boolean
  multiline?: boolean
  head_limit?: number
  offset?: number
}

/** A Grep tool bound to an engine (`auto`: ripgrep when on PATH, else built-in). */
export function createGrepTool(engine: GrepEngine = 'auto'): Tool<GrepInput> {
  return {
    name: 'Grep',
    description: () => toolDescription('Grep'),
    inputSchema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'The regular expression to search for (ripgrep syntax)' },
        path: { type: 'string', description: 'File or folder to search in (default: the cwd)' },
        glob: {
          type: 'string',
          description: 'Glob filter for files, e.g. "*.js" or "*.{ts,tsx}" (! excludes)',
        },
        type: { type: 'string', description: 'File type filter (ripgrep types: js, py, rust, go, ts, …)' },
        output_mode: {
          type: 'string',
          enum: ['content', 'files_with_matches', 'count'],
          description:
            'content: matching lines; files_with_matches: file paths (default); count: matches per file',
        },
        '-B': {
          type: 'integer',
          minimum: 0,
          description: 'Lines of context before each match (content mode)',
        },
        '-A': {
          type: 'integer',
          minimum: 0,
          description: 'Lines of context after each match (content mode)',
        },
        '-C': {
          type: 'integer',
          minimum: 0,
          description: 'Lines of context before and after each match (content mode)',
        },
        '-n': { type: 'boolean', description: 'Show line numbers (content mode; default true)' },
        '-i': { type: 'boolean', description: 'Case-insensitive search' },
        multiline: {
          type: 'boolean',
          description: 'Let patterns span lines; . matches newlines (default false)',
        },
        head_limit: { type: 'integer', minimum: 0, description: 'Return only the first N lines or entries' },
        offset: { type: 'integer', minimum: 0, description: 'Skip the first N lines or entries' },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    action: (input, ctx) => actionFor('Grep', input, ctx),
    title: (input, ctx) => {
      const where =
        typeof input.path === 'string' && input.path !== ''
          ? ` in ${displayPath(resolveInputPath(input.path, ctx), ctx)}`
          : ''
      return `Grep "${String(input.pattern ?? '')}"${where}`
    },
    preview: async () => undefined,
    call: async (input, ctx, signal) => {
      if (typeof input.pattern !== 'string' || input.pattern === '')
        return errorResult('invalid_input', 'pattern must be a non-empty string.')
      const root =
        typeof input.path === 'string' && input.path !== '' ? resolveInputPath(input.path, ctx) : ctx.cwd
      // The search starts at the real path the permission decision saw; the walk follows no links.
      const checked = realPathForOpen(root, ctx)
      if (!checked.ok) return { ok: false, error: checked.error }
      if (!(await stat(root).catch(() => undefined))) {
        return errorResult(
          'not_found',
          `Path does not exist: ${root}. Give an existing file or folder (or omit path to search the cwd).`,
        )
      }
      const mode = input.output_mode ?? 'files_with_matches'
      const context = input['-C'] ?? 0
      const before = mode === 'content' ? (input['-B'] ?? context) : 0
      const after = mode === 'content' ? (input['-A'] ?? context) : 0
      let outcome: Awaited<ReturnType<typeof searchFiles>>
      try {
        outcome = await searchFiles(
          {
            pattern: input.pattern,
            root,
            globs: input.glob ? splitGlobInput(input.glob) : [],
            types: input.type ? input.type.split(/[\s,]+/).filter((type) => type !== '') : [],
            caseInsensitive: input['-i'] === true,
            multiline: input.multiline === true,
            mode,
            before,
            after,
            signal,
          },
          engine,
        )
      } catch (error) {
        return errorResult('search_failed', `Search failed: ${errorMessage(error)}`)
      }
      if (!outcome.ok)
        return errorResult(
          'invalid_pattern',
          `${outcome.message}\nFix the pattern (ripgrep regex syntax; escape literal braces and parentheses) and retry.`,
        )
      if (ctx.decidedRealPaths !== undefined && realPathOnDisk(root) !== checked.real) {
        return errorResult(
          'path_changed',
          `${root} was swapped for a link to another place while it was searched; the results are withheld. Check the link, then search again.`,
        )
      }
      const allowed = outcome.files.filter((file) => !ctx.isReadDenied?.(file.path))
      const files = mode === 'files_with_matches' ? await newestFirst(allowed, (file) => file.path) : allowed
      const entries = renderEntries(files, {
        mode,
        lineNumbers: input['-n'] !== false,
        context: before + after > 0,
      })
      const offset = Math.max(0, input.offset ?? 0)
      const limit = input.head_limit !== undefined && input.head_limit > 0 ? input.head_limit : undefined
      const shown = entries.slice(offset, limit === undefined ? undefined : offset + limit)
      const details = { engine: outcome.engine, files: files.length, entries: entries.length }
      if (files.length === 0)
        return textResult(mode === 'files_with_matches' ? 'No files found' : 'No matches found', { details })
      const more =
        shown.length < entries.length - offset
          ? ` (showing ${shown.length} from entry ${offset + 1}; use offset=${offset + shown.length} for more)`
          : ''
      const header =
        mode === 'files_with_matches'
          ? `Found ${files.length} file${files.length === 1 ? '' : 's'}${more}`
          : mode === 'count'
            ? `Found ${files.reduce((sum, file) => sum + file.count, 0)} matches in ${files.length} file${files.length === 1 ? '' : 's'}${more}`
            : more === ''
              ? ''
              : `Showing part of the results${more}`
      const body = [header, ...shown].filter((line) => line !== '').join('\n')
      return textResult(await budgetOutput(ctx, body, 'search', 'grep-results'), { details })
    },
  }
}

/** Grep with ripgrep when on PATH, else the built-in engine. */
export const grepTool = createGrepTool()
