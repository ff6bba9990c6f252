import type { LineTable } from './stream-json-lines.js'

/** Warnings, notices and errors the session reports along the way. */
export const NOTICE_LINES = {
  retrying: (event, { common }) => [
    {
      type: 'warning',
      ...common,
      code: 'retrying',
      message: `Model request failed (${event.reason}); retry ${event.attempt} in ${event.delayMs} ms.`,
    },
  ],
  trustRequired: (event, { common }) => [
    {
      type: 'warning',
      ...common,
      code: 'trust_required',
      message: `This project sets ${event.categories.join(', ')}, withheld until you trust it (run 'z-engine trust' here, or the interactive z-engine once).`,
    },
  ],
  notice: (event, { common }) => [
    event.level === 'error'
      ? {
          type: 'error',
          ...common,
          message: event.message,
          ...(event.code ? { code: event.code } : {}),
        }
      : {
          // An info notice (what a rewind left alone, a reload) is no warning.
          type: event.level === 'info' ? 'info' : 'warning',
          ...common,
          message: event.message,
          ...(event.code ? { code: event.code } : {}),
        },
  ],
  completionClaimUnchecked: (_event, { common }) => [
    {
      type: 'warning',
      ...common,
      code: 'completion_unchecked',
      message: 'The final answer claims completion that no check backs.',
    },
  ],
} satisfies Partial<LineTable>
