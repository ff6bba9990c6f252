import type { LogRecord } from '@z-engine/protocol'
import { readJsonl } from './line-reader.js'
import { checkRecordShape } from './record-shape.js'

/** The first usable record of a log (normally its header), or undefined; never throws. */
export async function readFirstRecord(path: string): Promise<LogRecord | undefined> {
  try {
    for await (const entry of readJsonl(path, 'log.jsonl')) {
      if (entry.type === 'problem') continue
      const shape = checkRecordShape(entry.value)
      return shape.ok ? shape.record : undefined
    }
  } catch {
    return undefined
  }
  return undefined
}
