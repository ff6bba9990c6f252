/** The Postgres backend: the same conformance suite as SQLite, and the done-when chains across a restart. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStorage } from '../src/storage/open.js'
import { startStack, text, upstreamTexts } from './harness.js'
import { type PostgresCluster, startPostgres } from './postgres-cluster.js'
import { describeStorageConformance } from './storage-conformance.js'

let cluster: PostgresCluster
let current = ''
beforeAll(async () => {
  cluster = await startPostgres()
}, 120_000)
afterAll(async () => {
  await cluster?.stop()
})

describeStorageConformance('postgres', {
  fresh: async () => {
    current = await cluster.createDatabase()
    return openStorage({ backend: 'postgres', url: current })
  },
  reopen: () => openStorage({ backend: 'postgres', url: current }),
})

describe('the gateway on Postgres', () => {
  it('keeps a five-turn chain and a five-turn conversation across a restart', async () => {
    const db = await cluster.createDatabase()
    const stack = await startStack(
      [...[1, 2, 3, 4, 5].map((n) => text(`a${n}`)), ...[1, 2, 3, 4, 5].map((n) => text(`c${n}`))],
      { db },
    )
    try {
      let previous: string | undefined
      for (let turn = 1; turn <= 5; turn++) {
        if (turn === 3) await stack.restart()
        const response = await stack.client.responses.create({
          model: 'm',
          input: `q${turn}`,
          ...(previous ? { previous_response_id: previous } : {}),
        })
        expect(response.output_text).toBe(`a${turn}`)
        previous = response.id
      }
      expect(upstreamTexts(stack.upstream, 4)).toHaveLength(9)
      const conversation = await stack.client.conversations.create({})
      for (let turn = 1; turn <= 5; turn++) {
        if (turn === 3) await stack.restart()
        const response = await stack.client.responses.create({
          model: 'm',
          input: `m${turn}`,
          conversation: conversation.id,
        })
        expect(response.output_text).toBe(`c${turn}`)
      }
      expect(upstreamTexts(stack.upstream, 9)).toEqual([
        'user:m1',
        'assistant:c1',
        'user:m2',
        'assistant:c2',
        'user:m3',
        'assistant:c3',
        'user:m4',
        'assistant:c4',
        'user:m5',
      ])
      await stack.restart()
      expect((await stack.client.responses.retrieve(previous ?? '')).output_text).toBe('a5')
      expect(stack.logs.some((record) => JSON.stringify(record).includes(new URL(db).password))).toBe(false)
    } finally {
      await stack.close()
    }
  })
})
