import type { SessionRow } from '../sessions/session-listing.js'
import type { PickerRow } from './picker.js'

/** Picker rows for stored sessions: the title, then when, the short id and (for another project) where. */
export function sessionPickerRows(rows: readonly SessionRow[]): PickerRow[] {
  return rows.map((row) => ({
    key: row.sessionId,
    label: row.title,
    detail: [row.when, row.shortId, ...(row.inProject ? [] : [row.projectRoot])].join(' · '),
  }))
}
