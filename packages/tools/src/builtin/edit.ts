import { toolDescription } from '@z-engine/prompts'
import { checkEdits, editFile, previewEdits } from '../edit-file.js'
import { displayPath, resolveInputPath } from '../paths.js'
import type { Tool } from '../tool.js'
import { actionFor } from '../tool-actions.js'
import { withDiagnostics } from '../write-diagnostics.js'

/** Edit's input (Claude Code's shape). */
export type EditInput = { file_path: string; old_string: string; new_string: string; replace_all?: boolean }

/** Replaces an exact, unique string in a file (or every occurrence with `replace_all`). */
export const editTool: Tool<EditInput> = {
  name: 'Edit',
  description: () => toolDescription('Edit'),
  inputSchema: {
    type: 'object',
    properties: {
      file_path: { type: 'string', description: 'The path of the file to modify' },
      old_string: { type: 'string', description: 'The text to replace (exactly as in the file)' },
      new_string: {
        type: 'string',
        description: 'The text to replace it with (must differ from old_string)',
      },
      replace_all: { type: 'boolean', default: false, description: 'Replace every occurrence of old_string' },
    },
    required: ['file_path', 'old_string', 'new_string'],
    additionalProperties: false,
  },
  isReadOnly: () => false,
  isConcurrencySafe: () => false,
  action: (input, ctx) => actionFor('Edit', input, ctx),
  title: (input, ctx) => `Edit ${displayPath(resolveInputPath(String(input.file_path ?? ''), ctx), ctx)}`,
  preview: (input, ctx) => previewEdits(resolveInputPath(input.file_path, ctx), [input], ctx),
  check: (input, ctx) => checkEdits(resolveInputPath(input.file_path, ctx), [input], ctx),
  call: async (input, ctx, signal) =>
    withDiagnostics(await editFile(resolveInputPath(input.file_path, ctx), [input], ctx), ctx, signal),
}
