/**
 * The storage conformance suite: every backend runs exactly these tests (SQLite in
 * storage-sqlite.test.ts, Postgres in storage-postgres.test.ts).
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { NewItem, Storage, TurnRecord } from '../src/storage/types.js'

/** How a backend's suite gets a fresh, empty store and reopens the same one. */
export interface ConformanceTarget {
  /** A new, empty, migrated store. */
  fresh(): Promise<Storage>
  /** A second handle on the store `fresh` last returned (a restart). */
  reopen(): Promise<Storage>
}

const message = (id: string, text: string): NewItem => ({
  id,
  visibility: 'both',
  item: { type: 'message', id, role: 'user', content: [{ type: 'input_text', text }] },
})

function turn(id: string, previous: string | null, overrides: Partial<TurnRecord> = {}): TurnRecord {
  return {
    response: {
      id,
      previousResponseId: previous,
      conversationId: null,
      createdAt: 1_700_000_000,
      status: 'completed',
      snapshot: { id, object: 'response', status: 'completed', output: [] },
      history: [{ type: 'message', role: 'user', content: `input of ${id}` }],
      input: [{ id: `msg_${id}`, type: 'message', role: 'user', content: `input of ${id}` }],
      tenant: 'team-a',
    },
    expect: { kind: 'none' },
    conversationItems: [],
    ...overrides,
  }
}

/** Registers the suite for one backend. */
export function describeStorageConformance(name: string, target: ConformanceTarget): void {
  describe(`storage conformance: ${name}`, () => {
    const open: Storage[] = []
    const fresh = async (): Promise<Storage> => {
      const storage = await target.fresh()
      open.push(storage)
      return storage
    }
    afterEach(async () => {
      await Promise.all(open.splice(0).map((storage) => storage.close()))
    })

    it('creates, reads, updates and deletes a conversation', async () => {
      const storage = await fresh()
      const created = await storage.createConversation(
        { id: 'conv_1', createdAt: 1_700_000_000, metadata: { topic: 'a' }, tenant: 'team-a' },
        [message('msg_1', 'hi')],
      )
      expect(created).toEqual({
        id: 'conv_1',
        createdAt: 1_700_000_000,
        metadata: { topic: 'a' },
        version: 1,
        tenant: 'team-a',
      })
      expect(await storage.getConversation('conv_1')).toEqual(created)
      expect(await storage.updateConversation('conv_1', { topic: 'b' })).toMatchObject({
        metadata: { topic: 'b' },
      })
      expect(await storage.deleteConversation('conv_1')).toBe(true)
      expect(await storage.getConversation('conv_1')).toBeUndefined()
      expect(await storage.deleteConversation('conv_1')).toBe(false)
      expect(await storage.updateConversation('conv_1', {})).toBeUndefined()
      expect(await storage.addItems('conv_1', [message('msg_2', 'x')], 1)).toBeUndefined()
      expect(await storage.listItems('conv_1', { limit: 10, order: 'asc' })).toBeUndefined()
      expect(await storage.getConversation('conv_missing')).toBeUndefined()
    })

    it('appends, pages, reads and deletes items in order; model-only items stay unlisted', async () => {
      const storage = await fresh()
      await storage.createConversation({ id: 'conv_1', createdAt: 1, metadata: {}, tenant: '' }, [
        message('a', '1'),
      ])
      const added = await storage.addItems(
        'conv_1',
        [
          message('b', '2'),
          { id: 'c', visibility: 'model', item: { type: 'function_call_output' } },
          message('d', '4'),
        ],
        2,
      )
      expect(added?.map((item) => [item.id, item.position])).toEqual([
        ['b', 1],
        ['c', 2],
        ['d', 3],
      ])
      const ids = async (options: Parameters<Storage['listItems']>[1]): Promise<unknown> => {
        const page = await storage.listItems('conv_1', options)
        return page && { ids: page.items.map((item) => item.id), hasMore: page.hasMore }
      }
      expect(await ids({ limit: 10, order: 'asc' })).toEqual({ ids: ['a', 'b', 'd'], hasMore: false })
      expect(await ids({ limit: 10, order: 'asc', includeModelItems: true })).toEqual({
        ids: ['a', 'b', 'c', 'd'],
        hasMore: false,
      })
      expect(await ids({ limit: 2, order: 'desc' })).toEqual({ ids: ['d', 'b'], hasMore: true })
      expect(await ids({ limit: 2, order: 'desc', after: 'b' })).toEqual({ ids: ['a'], hasMore: false })
      expect(await ids({ limit: 1, order: 'asc', after: 'a' })).toEqual({ ids: ['b'], hasMore: true })
      expect((await storage.getItem('conv_1', 'b'))?.item).toMatchObject({ type: 'message', id: 'b' })
      expect(await storage.getItem('conv_1', 'c')).toBeUndefined()
      expect(await storage.getItem('conv_other', 'b')).toBeUndefined()
      const before = await storage.getConversation('conv_1')
      expect(await storage.deleteItem('conv_1', 'b')).toBe(true)
      expect(await storage.deleteItem('conv_1', 'b')).toBe(false)
      expect(await storage.deleteItem('conv_1', 'c')).toBe(false)
      expect((await storage.getConversation('conv_1'))?.version).toBe((before?.version ?? 0) + 1)
      expect(await ids({ limit: 10, order: 'asc' })).toEqual({ ids: ['a', 'd'], hasMore: false })
      const next = await storage.addItems('conv_1', [message('e', '5')], 3)
      expect(next?.[0]?.position).toBe(4)
    })

    it('stores a response chain and walks it oldest first; a deleted ancestor still carries history', async () => {
      const storage = await fresh()
      expect(await storage.persistTurn(turn('resp_1', null))).toMatchObject({ ok: true })
      expect(
        await storage.persistTurn(
          turn('resp_2', 'resp_1', { expect: { kind: 'response', id: 'resp_1', version: 0 } }),
        ),
      ).toMatchObject({ ok: true })
      expect(
        await storage.persistTurn(
          turn('resp_3', 'resp_2', { expect: { kind: 'response', id: 'resp_2', version: 0 } }),
        ),
      ).toMatchObject({ ok: true })
      const got = await storage.getResponse('resp_2')
      expect(got).toMatchObject({ id: 'resp_2', previousResponseId: 'resp_1', version: 1, deleted: false })
      expect(got?.snapshot).toEqual({ id: 'resp_2', object: 'response', status: 'completed', output: [] })
      expect((await storage.responseChain('resp_3', 10))?.map((r) => r.id)).toEqual([
        'resp_1',
        'resp_2',
        'resp_3',
      ])
      expect(await storage.responseChain('resp_3', 2)).toBeUndefined()
      expect(await storage.deleteResponse('resp_2')).toBe(true)
      expect(await storage.deleteResponse('resp_2')).toBe(false)
      expect(await storage.getResponse('resp_2')).toBeUndefined()
      expect((await storage.responseChain('resp_3', 10))?.map((r) => r.id)).toEqual([
        'resp_1',
        'resp_2',
        'resp_3',
      ])
      expect(await storage.responseChain('resp_2', 10)).toBeUndefined()
      expect(await storage.responseChain('resp_missing', 10)).toBeUndefined()
    })

    it('stores fresh responses persisted together, and a failing one fails alone', async () => {
      const storage = await fresh()
      await storage.persistTurn(turn('resp_taken', null))
      // Persisted in the same tick: the backend may write them as one statement (group commit).
      const results = await Promise.allSettled([
        storage.persistTurn(turn('resp_a', null)),
        storage.persistTurn(turn('resp_taken', null)),
        storage.persistTurn(turn('resp_b', null)),
      ])
      expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
      expect(results[0]).toMatchObject({ value: { ok: true } })
      for (const id of ['resp_a', 'resp_b', 'resp_taken'])
        expect(await storage.getResponse(id)).toMatchObject({ id, tenant: 'team-a', version: 0 })
      expect((await storage.getResponse('resp_b'))?.input).toEqual([
        { id: 'msg_resp_b', type: 'message', role: 'user', content: 'input of resp_b' },
      ])
    })

    it('lets only one of two concurrent continuations of a response win', async () => {
      const storage = await fresh()
      await storage.persistTurn(turn('resp_1', null))
      const expectParent = { expect: { kind: 'response', id: 'resp_1', version: 0 } as const }
      const results = await Promise.all([
        storage.persistTurn(turn('resp_a', 'resp_1', expectParent)),
        storage.persistTurn(turn('resp_b', 'resp_1', expectParent)),
      ])
      expect(results.filter((result) => result.ok)).toHaveLength(1)
      expect(results.filter((result) => !result.ok)).toEqual([{ ok: false, reason: 'conflict' }])
      const loser = results[0]?.ok ? 'resp_b' : 'resp_a'
      expect(await storage.getResponse(loser)).toBeUndefined()
      // A later, sequential fork from the same parent reads the new version and succeeds.
      expect(
        await storage.persistTurn(
          turn('resp_c', 'resp_1', { expect: { kind: 'response', id: 'resp_1', version: 1 } }),
        ),
      ).toMatchObject({ ok: true })
    })

    it('persists a conversation turn only at the version it read, with its items, atomically', async () => {
      const storage = await fresh()
      await storage.createConversation({ id: 'conv_1', createdAt: 1, metadata: {}, tenant: '' }, [
        message('a', '1'),
      ])
      const conversationTurn = (id: string, version: number, items: NewItem[]): TurnRecord =>
        turn(id, null, { expect: { kind: 'conversation', id: 'conv_1', version }, conversationItems: items })
      const results = await Promise.all([
        storage.persistTurn(conversationTurn('resp_a', 1, [message('b', 'x')])),
        storage.persistTurn(conversationTurn('resp_b', 1, [message('c', 'y')])),
      ])
      expect(results.filter((result) => result.ok)).toHaveLength(1)
      const page = await storage.listItems('conv_1', { limit: 10, order: 'asc' })
      expect(page?.items).toHaveLength(2)
      expect((await storage.getConversation('conv_1'))?.version).toBe(2)
      // A failing write (a duplicate response id) changes nothing: no version bump, no items.
      const winner = results[0]?.ok ? 'resp_a' : 'resp_b'
      await expect(storage.persistTurn(conversationTurn(winner, 2, [message('d', 'z')]))).rejects.toThrow()
      expect((await storage.getConversation('conv_1'))?.version).toBe(2)
      expect((await storage.listItems('conv_1', { limit: 10, order: 'asc' }))?.items).toHaveLength(2)
      await storage.deleteConversation('conv_1')
      expect(await storage.persistTurn(conversationTurn('resp_z', 3, []))).toEqual({
        ok: false,
        reason: 'missing',
      })
    })

    it('keeps everything across a reopen', async () => {
      const storage = await fresh()
      await storage.createConversation({ id: 'conv_1', createdAt: 5, metadata: { k: 'v' }, tenant: '' }, [
        message('a', '1'),
      ])
      await storage.persistTurn(turn('resp_1', null))
      await storage.close()
      open.splice(open.indexOf(storage), 1)
      const again = await target.reopen()
      open.push(again)
      await again.ping()
      expect(await again.getConversation('conv_1')).toMatchObject({ metadata: { k: 'v' } })
      expect(
        (await again.listItems('conv_1', { limit: 5, order: 'asc' }))?.items.map((item) => item.id),
      ).toEqual(['a'])
      expect(await again.getResponse('resp_1')).toMatchObject({ status: 'completed', tenant: 'team-a' })
    })
  })
}
