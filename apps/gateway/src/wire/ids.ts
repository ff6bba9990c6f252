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

const ID_BYTES = 24
// Random bytes fetched 256 ids at a time: one call into the CSPRNG per 256 ids, not one per id.
const POOL_IDS = 256
let pool = Buffer.alloc(0)
let offset = 0

function randomHex(bytes: number): string {
  if (offset + bytes > pool.length) {
    pool = randomBytes(ID_BYTES * POOL_IDS)
    offset = 0
  }
  const hex = pool.toString('hex', offset, offset + bytes)
  offset += bytes
  return hex
}

/** A new gateway-owned id: `<prefix>_` and 24 random hex bytes (never an upstream id, never reused). */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${randomHex(ID_BYTES)}`
}

/** A request id (`req_` and 12 random hex bytes), from the same pool: one per HTTP request. */
export function newRequestId(): string {
  return `req_${randomHex(12)}`
}
