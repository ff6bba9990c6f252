import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseLogRecord } from '@z-engine/protocol'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { agentLogPath, openStore, planRewind, RecordFactory, readJsonl, sessionPaths } from '../src/index.js'

let dataDir: string
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'z-store-protocol-'))
})
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true })
})

async function linesOf(path: string): Promise<unknown[]> {
  const values: unknown[] = []
  for await (const entry of readJsonl(path, 'log.jsonl')) if (entry.type === 'value') values.push(entry.value)
  return values
}

describe('records the store writes', () => {
  it('validate against the protocol schemas (headers, forks, agent logs, rewinds, factory records)', async () => {
    const store = openStore({ dataDir })
    const created = await store.create({ projectRoot: '/p', sessionId: 'valid', engineVersion: '0.1.0' })
    if (!created.ok) throw new Error(created.error.message)
    const factory = new RecordFactory()
    const records = [...factory.session(2), factory.checkpoint('m-r-4', 'abc123')]
    for (const record of records) await created.value.append(record)
    await created.value.appendAgent('ag1', factory.message('assistant', [{ type: 'text', text: 'hi' }]))
    await created.value.close()
    const replayed = await store.replay('valid')
    if (!replayed.ok) throw new Error(replayed.error.message)
    const firstPrompt = replayed.value.snapshot.transcript.find(
      (item) => item.kind === 'message' && item.message.role === 'user',
    )
    if (firstPrompt?.kind !== 'message') throw new Error('no prompt')
    const plan = planRewind(replayed.value.snapshot, {
      messageId: firstPrompt.message.id,
      scope: 'conversation',
    })
    if (!plan.ok) throw new Error(plan.error.message)
    const forked = await store.fork('valid', { uptoRecordId: records[5]!.id, newSessionId: 'forked' })
    expect(forked.ok).toBe(true)
    const all = [
      ...(await linesOf(sessionPaths(dataDir, 'valid').log)),
      ...(await linesOf(agentLogPath(sessionPaths(dataDir, 'valid'), 'ag1'))),
      ...(await linesOf(sessionPaths(dataDir, 'forked').log)),
      { ...plan.value.event, id: 'rw', at: '2026-01-01T00:00:00.000Z' },
    ]
    expect(all.length).toBeGreaterThan(records.length)
    expect(parseLogRecord({ type: 'messageRecorded', id: 'x', at: 'y' }).ok).toBe(false)
    for (const value of all) {
      const parsed = parseLogRecord(value)
      expect(parsed.ok ? 'valid' : JSON.stringify(parsed)).toBe('valid')
    }
  })
})
