import { extname } from 'node:path'
import { toolDescription } from '@z-engine/prompts'
import { displayPath, resolveInputPath } from '../paths.js'
import { budgetPortResult, guardPort, portMissing } from '../port-results.js'
import { errorResult } from '../results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'

/** The LSP tool's operations. */
export const LSP_OPERATIONS = [
  'goToDefinition',
  'findReferences',
  'hover',
  'documentSymbol',
  'workspaceSymbol',
  'diagnostics',
  'renamePreview',
  'goToImplementation',
  'incomingCalls',
  'outgoingCalls',
] as const

/** One LSP operation. */
export type LspOperation = (typeof LSP_OPERATIONS)[number]

/** LSP's input; `line` and `character` are 1-based, as an editor shows them. */
export interface LspInput {
  operation: LspOperation
  filePath?: string
  line?: number
  character?: number
  /** A symbol name standing for the position: its first whole-word occurrence (on `line` when given). */
  symbol?: string
  query?: string
  newName?: string
}

const NAME = 'LSP'

/** LSP: navigation, symbols, diagnostics and rename previews through the LspPort. */
export const lspTool: Tool<LspInput> = {
  name: NAME,
  description: () => toolDescription(NAME),
  inputSchema: {
    type: 'object',
    properties: {
      operation: { type: 'string', enum: [...LSP_OPERATIONS], description: 'The query to run.' },
      filePath: { type: 'string', minLength: 1, description: 'The file (absolute or relative to the cwd).' },
      line: { type: 'integer', minimum: 1, description: 'Line number, 1-based.' },
      character: { type: 'integer', minimum: 1, description: 'Column, 1-based.' },
      symbol: {
        type: 'string',
        minLength: 1,
        description:
          'Instead of line and character: the symbol name (its first occurrence, on `line` when given).',
      },
      query: { type: 'string', minLength: 1, description: 'Symbol name to find (workspaceSymbol).' },
      newName: { type: 'string', minLength: 1, description: 'The new name (renamePreview).' },
    },
    required: ['operation'],
    additionalProperties: false,
  },
  // Every operation only asks; renamePreview shows edits without making them.
  isReadOnly: () => true,
  isConcurrencySafe: () => true,
  action: (input, ctx) => actionFor(NAME, input, ctx),
  title: (input, ctx) => {
    const where =
      typeof input.filePath === 'string'
        ? ` ${displayPath(resolveInputPath(input.filePath, ctx), ctx)}${typeof input.line === 'number' ? `:${input.line}${typeof input.character === 'number' ? `:${input.character}` : ''}` : ''}`
        : typeof input.query === 'string'
          ? ` "${input.query}"`
          : ''
    return `LSP ${String(input.operation)}${where}`
  },
  preview: async () => undefined,
  async call(input, ctx, signal) {
    const lsp = ctx.ports.lsp
    if (lsp === undefined) return portMissing(NAME, 'language server')
    const missing = missingFields(input)
    if (missing !== undefined) return errorResult('invalid_input', missing)
    const filePath = input.filePath === undefined ? undefined : resolveInputPath(input.filePath, ctx)
    if (filePath !== undefined && !lsp.covers(filePath)) {
      const extension = extname(filePath) || 'extension-less'
      return errorResult(
        'not_covered',
        `No language server covers ${displayPath(filePath, ctx)} (none is installed or configured for ${extension} files). Use Grep or Read to find what you need instead.`,
      )
    }
    return guardPort(NAME, async () => {
      const answer = await lsp.query(
        {
          operation: input.operation,
          ...(filePath === undefined ? {} : { filePath }),
          ...(input.line === undefined ? {} : { line: input.line }),
          ...(input.character === undefined ? {} : { character: input.character }),
          ...(input.symbol === undefined ? {} : { symbol: input.symbol }),
          ...(input.query === undefined ? {} : { query: input.query }),
          ...(input.newName === undefined ? {} : { newName: input.newName }),
        },
        signal,
      )
      return budgetPortResult(ctx, answer, 'search', 'lsp')
    })
  },
}

/** What an operation needs that the input lacks, as a message; undefined when complete. */
function missingFields(input: LspInput): string | undefined {
  const needs: string[] = []
  switch (input.operation) {
    case 'goToDefinition':
    case 'goToImplementation':
    case 'findReferences':
    case 'hover':
    case 'incomingCalls':
    case 'outgoingCalls':
      if (input.filePath === undefined) needs.push('filePath')
      needs.push(...positionNeeds(input))
      break
    case 'renamePreview':
      if (input.filePath === undefined) needs.push('filePath')
      needs.push(...positionNeeds(input))
      if (input.newName === undefined) needs.push('newName')
      break
    case 'documentSymbol':
    case 'diagnostics':
      if (input.filePath === undefined) needs.push('filePath')
      break
    case 'workspaceSymbol':
      if (input.query === undefined) needs.push('query')
      break
    default: {
      const never: never = input.operation
      return `Unknown operation '${String(never)}'; use one of ${LSP_OPERATIONS.join(', ')}.`
    }
  }
  return needs.length === 0 ? undefined : `${input.operation} needs ${needs.join(', ')}.`
}

/** A position is line and character, or a symbol name. */
function positionNeeds(input: LspInput): string[] {
  if (input.symbol !== undefined) return []
  if (input.line === undefined && input.character === undefined) return ['line and character (or symbol)']
  return [
    ...(input.line === undefined ? ['line'] : []),
    ...(input.character === undefined ? ['character'] : []),
  ]
}
