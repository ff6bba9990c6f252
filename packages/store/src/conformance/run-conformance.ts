import * as assert from 'node:assert/strict'
import type { LogRecord, Message } from '@z-engine/protocol'
import type { StoreResult } from '../result.js'
import type { SessionStore } from '../session-store.js'
import { INTERRUPTED_RESULT_TEXT } from '../tool-pairing.js'
import { RecordFactory } from './record-factory.js'

/** A backend under test, plus the one hook the suite cannot express through the store API. */
export interface StoreHarness {
  store: SessionStore
  /** Appends raw bytes to a session's main log, as a crash mid-write would leave them. */
  appendRawBytes(sessionId: string, bytes: Uint8Array): Promise<void>
  /** Removes whatever the harness created. */
  cleanup(): Promise<void>
}

/** Registers one named async test (vitest's `it`, node:test's `test`, ...). */
export type RegisterTest = (name: string, run: () => Promise<void>) => void

/** One conformance case. */
export interface ConformanceCase {
  name: string
  run(harness: StoreHarness): Promise<void>
}

const PROJECT = '/projects/conformance'

function unwrap<T>(result: StoreResult<T>): T {
  if (result.ok) return result.value
  return assert.fail(`${result.error.code}: ${result.error.message}`)
}

const messagesOf = (records: readonly LogRecord[]): Message[] =>
  records.flatMap((record) => (record.type === 'messageRecorded' ? [record.message] : []))

async function createWith(harness: StoreHarness, records: readonly LogRecord[], sessionId?: string) {
  const log = unwrap(
    await harness.store.create({ projectRoot: PROJECT, ...(sessionId ? { sessionId } : {}) }),
  )
  for (const record of records) await log.append(record)
  await log.close()
  return log.sessionId
}

/** Every case a session store backend must pass. */
export const STORE_CONFORMANCE_CASES: readonly ConformanceCase[] = [
  {
    name: 'append then replay returns deep-equal messages, todos, title and usage',
    async run(harness) {
      const factory = new RecordFactory()
      const records = factory.session(3)
      const sessionId = await createWith(harness, records)
      const { snapshot, problems } = unwrap(await harness.store.replay(sessionId))
      assert.deepEqual(problems, [])
      assert.deepEqual(snapshot.workingSet, messagesOf(records))
      assert.deepEqual(
        snapshot.transcript.flatMap((item) => (item.kind === 'message' ? [item.message] : [])),
        messagesOf(records),
      )
      assert.equal(snapshot.sessionId, sessionId)
      assert.equal(snapshot.title, 'Fix the failing test')
      assert.equal(snapshot.todos.length, 3)
      assert.equal(snapshot.turns.length, 3)
      assert.ok(snapshot.turns.every((turn) => turn.outcome.type === 'done' && !turn.interrupted))
      assert.equal(snapshot.usage.inputTokens, 1200 * 6)
      assert.equal(snapshot.recordCount, records.length + 1)
      assert.equal(snapshot.lastRecordId, records.at(-1)?.id)
    },
  },
  {
    name: 'reopening a session appends after its existing records',
    async run(harness) {
      const factory = new RecordFactory()
      const first = factory.session(1)
      const sessionId = await createWith(harness, first)
      const log = unwrap(await harness.store.open(sessionId))
      const second = factory.turn('more')
      for (const record of second) await log.append(record)
      await log.close()
      const { snapshot, problems } = unwrap(await harness.store.replay(sessionId))
      assert.deepEqual(problems, [])
      assert.deepEqual(snapshot.workingSet, messagesOf([...first, ...second]))
    },
  },
  {
    name: 'a turn that never finished replays as interrupted with synthesized tool results',
    async run(harness) {
      const factory = new RecordFactory()
      const done = factory.turn('first')
      const { turnId, records: opening } = factory.startTurn('second')
      const dangling = factory.toolRound(turnId, 2, false)
      const sessionId = await createWith(harness, [...done, ...opening, ...dangling])
      const { snapshot } = unwrap(await harness.store.replay(sessionId))
      const last = snapshot.turns.at(-1)
      assert.equal(last?.turnId, turnId)
      assert.equal(last?.outcome.type, 'interrupted')
      assert.equal(last?.interrupted, true)
      const tail = snapshot.workingSet.at(-1)
      assert.equal(tail?.role, 'user')
      const results = tail?.content ?? []
      assert.equal(results.length, 2)
      for (const block of results) {
        assert.equal(block.type, 'tool_result')
        if (block.type === 'tool_result') {
          assert.equal(block.isError, true)
          assert.deepEqual(block.content, [{ type: 'text', text: INTERRUPTED_RESULT_TEXT }])
        }
      }
      const tools = snapshot.transcript.filter((item) => item.kind === 'tool' && item.turnId === turnId)
      assert.ok(
        tools.length === 2 && tools.every((item) => item.kind === 'tool' && item.status === 'interrupted'),
      )
      assert.ok(snapshot.transcript.some((item) => item.kind === 'turnEnded' && item.turnId === turnId))
    },
  },
  {
    name: 'a torn last line is skipped and reported with its byte offset; appends continue after it',
    async run(harness) {
      const factory = new RecordFactory()
      const records = factory.session(1)
      const sessionId = await createWith(harness, records)
      const before = unwrap(await harness.store.replay(sessionId)).snapshot
      const torn = Buffer.from(
        '{"type":"message","id":"torn-1","at":"2026-01-01T00:00:00.000Z","message":{"id"',
      )
      await harness.appendRawBytes(sessionId, torn)
      const after = unwrap(await harness.store.replay(sessionId))
      assert.deepEqual(after.snapshot, before)
      assert.equal(after.problems.length, 1)
      assert.equal(after.problems[0]?.kind, 'torn')
      assert.equal(after.problems[0]?.length, torn.length)
      const offset = after.problems[0]?.offset ?? -1
      const log = unwrap(await harness.store.open(sessionId))
      const more = factory.turn('after the crash')
      for (const record of more) await log.append(record)
      await log.close()
      const resumed = unwrap(await harness.store.replay(sessionId))
      assert.deepEqual(resumed.snapshot.workingSet, messagesOf([...records, ...more]))
      assert.equal(resumed.problems.length, 1)
      assert.equal(resumed.problems[0]?.offset, offset)
    },
  },
  {
    name: 'fork keeps the log up to a record, links the parent, and leaves the original alone',
    async run(harness) {
      const factory = new RecordFactory()
      const first = factory.turn('one')
      const second = factory.turn('two')
      const sessionId = await createWith(harness, [...first, ...second])
      const cut = first.at(-1)!.id
      const forkId = unwrap(await harness.store.fork(sessionId, { uptoRecordId: cut }))
      assert.notEqual(forkId, sessionId)
      const forked = unwrap(await harness.store.replay(forkId))
      assert.deepEqual(forked.problems, [])
      assert.deepEqual(forked.snapshot.workingSet, messagesOf(first))
      assert.equal(forked.snapshot.sessionId, forkId)
      assert.equal(forked.snapshot.parent?.sessionId, sessionId)
      assert.equal(unwrap(await harness.store.readMeta(forkId)).parent?.uptoRecordId, cut)
      const original = unwrap(await harness.store.replay(sessionId))
      assert.deepEqual(original.snapshot.workingSet, messagesOf([...first, ...second]))
      const missing = await harness.store.fork(sessionId, { uptoRecordId: 'no-such-record' })
      assert.equal(missing.ok, false)
    },
  },
  {
    name: 'concurrent appends from many writers never interleave and keep each writer in order',
    async run(harness) {
      const log = unwrap(await harness.store.create({ projectRoot: PROJECT }))
      const writers = 16
      const perWriter = 40
      await Promise.all(
        Array.from({ length: writers }, async (_, writer) => {
          const factory = new RecordFactory(`w${writer}`)
          for (let index = 0; index < perWriter; index++) {
            const text = `writer ${writer} record ${index} ${'x'.repeat(writer * 300)}`
            await log.append(factory.message('assistant', [{ type: 'text', text }]))
            await log.appendAgent(
              `agent-${writer % 4}`,
              factory.message('assistant', [{ type: 'text', text }]),
            )
          }
        }),
      )
      await log.close()
      const { snapshot, problems } = unwrap(await harness.store.replay(log.sessionId))
      assert.deepEqual(problems, [])
      assert.equal(snapshot.workingSet.length, writers * perWriter)
      for (let writer = 0; writer < writers; writer++) {
        const mine = snapshot.workingSet.filter((message) => message.id.startsWith(`m-w${writer}-`))
        const order = mine.map((message) => Number(message.id.split('-')[2]))
        assert.deepEqual(
          order,
          [...order].sort((a, b) => a - b),
        )
        assert.equal(mine.length, perWriter)
      }
      const agent = unwrap(await harness.store.replayAgent(log.sessionId, 'agent-0'))
      assert.deepEqual(agent.problems, [])
      assert.equal(agent.snapshot.workingSet.length, (writers / 4) * perWriter)
    },
  },
  {
    name: 'list shows a project’s sessions most recent first; delete removes one',
    async run(harness) {
      const factory = new RecordFactory()
      const older = await createWith(harness, [factory.title('older')])
      await new Promise((resolve) => setTimeout(resolve, 20))
      const newer = await createWith(harness, [factory.title('newer')])
      const rows = await harness.store.list({ projectRoot: PROJECT })
      const ids = rows.map((row) => row.sessionId)
      assert.ok(ids.indexOf(newer) !== -1 && ids.indexOf(newer) < ids.indexOf(older))
      assert.equal(rows.find((row) => row.sessionId === newer)?.title, 'newer')
      assert.ok((rows.find((row) => row.sessionId === newer)?.sizeBytes ?? 0) > 0)
      assert.deepEqual(await harness.store.list({ projectRoot: '/elsewhere' }), [])
      unwrap(await harness.store.delete(older))
      assert.equal((await harness.store.replay(older)).ok, false)
      assert.ok(!(await harness.store.list()).some((row) => row.sessionId === older))
    },
  },
  {
    name: 'a conversation rewind drops everything from the chosen user message on',
    async run(harness) {
      const factory = new RecordFactory()
      const first = factory.turn('one')
      const second = factory.startTurn('two')
      const rest = [...factory.toolRound(second.turnId, 1), ...factory.finishTurn(second.turnId)]
      const rewind: LogRecord = {
        type: 'rewound',
        id: factory.nextId(),
        at: '2026-01-01T00:00:00.000Z',
        messageId: second.messageId,
        scope: 'both',
      }
      const sessionId = await createWith(harness, [...first, ...second.records, ...rest, rewind])
      const { snapshot, problems } = unwrap(await harness.store.replay(sessionId))
      assert.deepEqual(problems, [])
      assert.deepEqual(snapshot.workingSet, messagesOf(first))
      assert.equal(snapshot.turns.length, 1)
    },
  },
  {
    name: 'artifacts are content-addressed',
    async run(harness) {
      const sessionId = await createWith(harness, [])
      const a = unwrap(await harness.store.writeArtifact(sessionId, 'same bytes', 'txt'))
      const b = unwrap(await harness.store.writeArtifact(sessionId, Buffer.from('same bytes'), 'txt'))
      const c = unwrap(await harness.store.writeArtifact(sessionId, 'other bytes', 'txt'))
      assert.equal(a, b)
      assert.notEqual(a, c)
    },
  },
  {
    name: 'invalid and unknown ids are errors, not throws',
    async run(harness) {
      assert.equal((await harness.store.replay('../escape')).ok, false)
      assert.equal((await harness.store.open('no-such-session')).ok, false)
      assert.equal((await harness.store.delete('no-such-session')).ok, false)
    },
  },
]

/**
 * Registers the store conformance suite: every case runs against a fresh harness, which is
 * cleaned up afterwards. Usage with vitest: `runStoreConformance(makeHarness, it)`.
 */
export function runStoreConformance(makeHarness: () => Promise<StoreHarness>, register: RegisterTest): void {
  for (const testCase of STORE_CONFORMANCE_CASES) {
    register(testCase.name, async () => {
      const harness = await makeHarness()
      try {
        await testCase.run(harness)
      } finally {
        await harness.cleanup()
      }
    })
  }
}
