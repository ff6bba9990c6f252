import { addCost, addUsage, type Cost, type Usage, ZERO_COST, ZERO_USAGE } from '@z-engine/protocol'

/**
 * The upgrade reader for logs written in format 2 (before records were persisted events). Eight
 * record types had names of their own; format 3 writes the event's name and fields instead:
 *
 *   message → messageRecorded   todos → todosUpdated   check → checkRecorded (`check` → `record`)
 *   checkpoint → checkpointCreated   compaction → compacted   rewind → rewound
 *   usage → usageUpdated (gains the session totals)   taskView → taskViewApplied
 *
 * The other twelve (turnStarted, approvalResolved, …) were already events of the same shape. No
 * format-3 record uses an old name, so a line is upgraded by its type alone — which also reads a
 * format-2 log that a newer engine continued (resumed sessions keep their file and header).
 */
export class LegacyRecordReader {
  // A format-2 usage record held one request; the event also carries the session's running totals.
  #usage: Usage = ZERO_USAGE
  #cost: Cost = ZERO_COST

  /** Today's shape of one parsed line: a renamed copy of a format-2 record, or the line itself. */
  upgrade(value: unknown): unknown {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
    const record = value as Record<string, unknown>
    switch (record.type) {
      case 'message':
        return { ...record, type: 'messageRecorded' }
      case 'todos':
        return { ...record, type: 'todosUpdated' }
      case 'check': {
        const { check, ...rest } = record
        return { ...rest, type: 'checkRecorded', record: check }
      }
      case 'checkpoint':
        return { ...record, type: 'checkpointCreated' }
      case 'compaction':
        return { ...record, type: 'compacted' }
      case 'rewind':
        return { ...record, type: 'rewound' }
      case 'taskView':
        return { ...record, type: 'taskViewApplied' }
      case 'usage': {
        if (isNumbers(record.usage) && isNumbers(record.cost)) {
          this.#usage = addUsage(this.#usage, record.usage as Usage)
          this.#cost = addCost(this.#cost, record.cost as Cost)
        }
        return { ...record, type: 'usageUpdated', sessionUsage: this.#usage, sessionCost: this.#cost }
      }
      case 'usageUpdated':
        // A format-3 record after format-2 ones (a resumed session): its totals are the truth.
        if (isNumbers(record.sessionUsage) && isNumbers(record.sessionCost)) {
          this.#usage = record.sessionUsage as Usage
          this.#cost = record.sessionCost as Cost
        }
        return record
      default:
        return record
    }
  }
}

const isNumbers = (value: unknown): boolean =>
  typeof value === 'object' &&
  value !== null &&
  Object.values(value).every((field) => typeof field === 'number')
