/**
 * The database going away never takes the gateway down: a Postgres restart under load (57P01 to the
 * connected clients, then ECONNREFUSED until it is back) and a locked SQLite file fail the requests
 * that meet them with a 503 `storage_unavailable`, and later requests succeed once the database is
 * back — in the same process.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { openSqliteDatabase } from '../src/storage/sqlite-database.js'
import { type Stack, startStack, text } from './harness.js'
import { type PostgresCluster, startPostgres } from './postgres-cluster.js'

let stack: Stack | undefined
afterEach(async () => {
  await stack?.close()
  stack = undefined
})

type Phase = 'before' | 'down' | 'after'
type Outcome = number | 'ok'

/**
 * Concurrent clients looping on stored requests until stopped; each outcome is filed under the phase
 * its request started in, and waiters resolve when a phase's outcomes satisfy them.
 */
function load(target: Stack, clients: number) {
  let phase: Phase = 'before'
  let stopped = false
  const outcomes: Record<Phase, Outcome[]> = { before: [], down: [], after: [] }
  const waiters: Array<{ check: () => boolean; resolve: () => void }> = []
  const record = (at: Phase, outcome: Outcome): void => {
    outcomes[at].push(outcome)
    for (const waiter of [...waiters])
      if (waiter.check()) {
        waiters.splice(waiters.indexOf(waiter), 1)
        waiter.resolve()
      }
  }
  const worker = async (): Promise<void> => {
    // Bounded: a run that never reaches its states fails on the test's timeout, not by looping forever.
    for (let round = 0; round < 2000 && !stopped; round++) {
      const at = phase
      try {
        await target.client.responses.create({ model: 'm', input: `q${round}` })
        record(at, 'ok')
      } catch (error) {
        record(at, (error as { status?: number }).status ?? 0)
      }
    }
  }
  const workers = Array.from({ length: clients }, worker)
  return {
    outcomes,
    set phase(next: Phase) {
      phase = next
    },
    until(check: () => boolean): Promise<void> {
      if (check()) return Promise.resolve()
      return new Promise((resolve) => waiters.push({ check, resolve }))
    },
    async stop(): Promise<void> {
      stopped = true
      await Promise.all(workers)
    },
  }
}

describe('Postgres restart', () => {
  let cluster: PostgresCluster
  beforeAll(async () => {
    cluster = await startPostgres()
  }, 120_000)
  afterAll(async () => {
    await cluster?.stop()
  })

  it('under load: no crash, 503s while it is down, success after it is back', async () => {
    const db = await cluster.createDatabase()
    stack = await startStack(() => text('ok'), { db })
    // The startup line keeps the port, the upstream and the database user; only the password goes.
    const target = new URL(db)
    expect(target.password).not.toBe('')
    expect(stack.logs.find((line) => line.msg === 'gateway listening')).toMatchObject({
      url: stack.gateway.url,
      upstream: stack.upstream.openaiBaseUrl,
      db: `postgres://${target.username}:***@${target.host}${target.pathname}`,
    })
    expect(JSON.stringify(stack.logs)).not.toContain(target.password)
    const run = load(stack, 6)
    await run.until(() => run.outcomes.before.filter((o) => o === 'ok').length >= 20)
    run.phase = 'down'
    await cluster.halt()
    await run.until(() => run.outcomes.down.filter((o) => o === 503).length >= 5)
    await cluster.start()
    run.phase = 'after'
    // Every client succeeds again: 20 successes in a row once the pool has reconnected.
    await run.until(() => {
      const after = run.outcomes.after
      return after.length >= 20 && after.slice(-20).every((o) => o === 'ok')
    })
    await run.stop()
    const all = [...run.outcomes.before, ...run.outcomes.down, ...run.outcomes.after]
    // Only successes and 503s: no 500, no dropped connection.
    expect(new Set(all.map(String))).toEqual(new Set(['ok', '503']))
    expect(stack.logs.some((line) => line.msg === 'storage unavailable')).toBe(true)
    const health = await fetch(`${stack.gateway.url}/ready`)
    expect(health.status).toBe(200)
    // The pool's state is on /metrics: connections again, nobody waiting.
    const metrics = await (await fetch(`${stack.gateway.url}/metrics`)).text()
    expect(metrics).toMatch(/^gateway_db_pool_connections\{state="total"\} [1-9]/m)
    expect(metrics).toContain('gateway_db_pool_connections{state="waiting"} 0')
    // A stored response written after the restart reads back.
    const last = await stack.client.responses.create({ model: 'm', input: 'after' })
    expect((await stack.client.responses.retrieve(last.id)).id).toBe(last.id)
  }, 180_000)
})

describe('a locked SQLite database', () => {
  it('answers 503 (JSON and streamed) while another writer holds the lock, and recovers after', async () => {
    stack = await startStack(() => text('ok'), { storage: { busyTimeoutMs: 50 } })
    await stack.client.responses.create({ model: 'm', input: 'first' })
    const { database } = await openSqliteDatabase(stack.db.replace(/^sqlite:/, ''), { busyTimeoutMs: 0 })
    database.prepare('BEGIN IMMEDIATE').run([])
    try {
      await expect(stack.client.responses.create({ model: 'm', input: 'locked' })).rejects.toMatchObject({
        status: 503,
        code: 'storage_unavailable',
      })
      const stream = await stack.client.responses.create({ model: 'm', input: 'locked', stream: true })
      const events: Array<{ type: string; response?: { error?: { code?: string } } }> = []
      for await (const event of stream) events.push(event as (typeof events)[number])
      expect(events.at(-1)).toMatchObject({
        type: 'response.failed',
        response: { error: { code: 'storage_unavailable' } },
      })
    } finally {
      database.prepare('ROLLBACK').run([])
      database.close()
    }
    const after = await stack.client.responses.create({ model: 'm', input: 'unlocked' })
    expect((await stack.client.responses.retrieve(after.id)).status).toBe('completed')
  })
})
