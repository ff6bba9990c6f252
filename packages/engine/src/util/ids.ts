import { randomBytes } from 'node:crypto'

let lastTime = 0
let counter = 0

/**
 * A sortable unique id: base-36 milliseconds, a per-millisecond counter and randomness, with a
 * prefix naming what it identifies (`s_` session, `t_` turn, `m_` message…).
 */
export function newId(prefix: string): string {
  const now = Date.now()
  counter = now === lastTime ? counter + 1 : 0
  lastTime = now
  return `${prefix}_${now.toString(36)}${counter.toString(36).padStart(3, '0')}${randomBytes(5).toString('hex')}`
}
