import { toolDescription } from '@z-engine/prompts'
import type { EditSpec } from '../edit-apply.js'
import { checkEdits, editFile, previewEdits } from '../edit-file.js'
import { displayPath, resolveInputPath } from '../paths.js'
import { errorResult } from '../results.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'
import { withDiagnostics } from '../write-diagnostics.js'

/** MultiEdit's input (Claude Code's shape). */
export type MultiEditInput = { file_path: string; edits: EditSpec[] }

/** Several edits to one file, applied in order, all or nothing. */
export const multiEditTool: Tool<MultiEditInput> = {
  name: 'MultiEdit',
  description: () => toolDescription('MultiEdit'),
  inputSchema: {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'The path of the file to modify' },
      edits: {
        type: 'array',
        minItems: 1,
        description: 'Edits applied in order, each to the result of the previous one',
        items: {
          type: 'object',
          properties: {
            old_string: { type: 'string', description: 'The text to replace' },
            new_string: { type: 'string', description: 'The text to replace it with' },
            replace_all: { type: 'boolean', default: false, description: 'Replace every occurrence' },
          },
          required: ['old_string', 'new_string'],
          additionalProperties: false,
        },
      },
    },
    required: ['file_path', 'edits'],
    additionalProperties: false,
  },
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  action: (input, ctx) => actionFor('MultiEdit', input, ctx),
  title: (input, ctx) => {
    const count = Array.isArray(input.edits) ? input.edits.length : 0
    return `Edit ${displayPath(resolveInputPath(String(input.file_path ?? ''), ctx), ctx)} (${count} edits)`
  },
  preview: (input, ctx) => previewEdits(resolveInputPath(input.file_path, ctx), input.edits, ctx),
  check: (input, ctx) => checkEdits(resolveInputPath(input.file_path, ctx), input.edits, ctx),
  call: async (input, ctx, signal) => {
    if (!Array.isArray(input.edits) || input.edits.length === 0) {
      return errorResult(
        'invalid_input',
        'edits must be a non-empty array of {old_string, new_string, replace_all?}.',
      )
    }
    return withDiagnostics(
      await editFile(resolveInputPath(input.file_path, ctx), input.edits, ctx),
      ctx,
      signal,
    )
  },
}
