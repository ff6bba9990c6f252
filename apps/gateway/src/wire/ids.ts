import { randomBytes } from 'node:crypto'

/** Prefixes of the ids the gateway mints (OpenAI's spellings, so clients recognise them). */
export type IdPrefix =
  | 'resp'
  | 'conv'
  | 'msg'
  | 'fc'
  | 'ctc'
  | 'rs'
  | 'mcp'
  | 'mcpl'
  | 'ws'
  | 'wf'
  | 'cmp'
  | 'item'
  | 'call'

/** A new gateway-owned id: `<prefix>_` and 24 random hex bytes (never an upstream id, never reused). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomBytes(24).toString('hex')}`
}
