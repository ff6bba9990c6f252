import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  checkSessionId,
  defaultDataDir,
  JsonlAppender,
  type JsonlEntry,
  openStore,
  parseMeta,
  RecordFactory,
  readJsonl,
  sessionPaths,
  writeFileAtomic,
} from '../src/index.js'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'z-store-files-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function entries(path: string): Promise<JsonlEntry[]> {
  const out: JsonlEntry[] = []
  for await (const entry of readJsonl(path, 'log.jsonl')) out.push(entry)
  return out
}

describe('paths', () => {
  it('defaults to the XDG data home, else ~/.local/share', () => {
    expect(defaultDataDir({ xdgDataHome: '/xdg', home: '/home/u' })).toBe('/xdg/z-engine')
    expect(defaultDataDir({ home: '/home/u' })).toBe('/home/u/.local/share/z-engine')
    // A relative XDG_DATA_HOME is invalid per the XDG spec and ignored.
    expect(defaultDataDir({ xdgDataHome: 'rel', home: '/home/u' })).toBe('/home/u/.local/share/z-engine')
    expect(sessionPaths('/d', 'abc').log).toBe('/d/sessions/abc/log.jsonl')
  })

  it('refuses ids that could leave the sessions folder', () => {
    for (const bad of ['', '..', '../x', 'a/b', '.hidden', 'a..b', 'x'.repeat(200)]) {
      expect(checkSessionId(bad)).toMatch(/invalid id/)
    }
    expect(checkSessionId('0b7c-uuid_like.1')).toBeUndefined()
  })
})

describe('readJsonl', () => {
  it('reports byte offsets across chunk boundaries, skips blank lines, flags corrupt and torn lines', async () => {
    const path = join(dir, 'log.jsonl')
    const big = JSON.stringify({ type: 'x', id: 'big', text: 'é'.repeat(700_000) })
    const lines = ['{"id":"a"}', '', big, 'not json', '{"id":"b","cut":"abc', '{"id":"c"}', '{"id":"d"']
    await writeFile(path, lines.join('\n'))
    const got = await entries(path)
    const offsetOf = (index: number) =>
      Buffer.byteLength(
        lines
          .slice(0, index)
          .map((line) => `${line}\n`)
          .join(''),
      )
    expect(got.map((entry) => (entry.type === 'value' ? entry.offset : entry.problem.offset))).toEqual([
      0,
      offsetOf(2),
      offsetOf(3),
      offsetOf(4),
      offsetOf(5),
      offsetOf(6),
    ])
    expect(got.map((entry) => (entry.type === 'value' ? 'value' : entry.problem.kind))).toEqual([
      'value',
      'value',
      'corrupt',
      'torn',
      'value',
      'torn',
    ])
    const bigEntry = got[1]
    expect(bigEntry?.type === 'value' && bigEntry.length).toBe(Buffer.byteLength(big))
  })
})

describe('JsonlAppender', () => {
  it('ends a torn tail with a newline before appending, so the next record stays intact', async () => {
    const path = join(dir, 'log.jsonl')
    await writeFile(path, '{"type":"a","id":"1"}\n{"type":"a","id":"2","cut')
    const appender = await JsonlAppender.open(path, 'always')
    await appender.append({ type: 'a', id: '3' } as never)
    await appender.close()
    const got = await entries(path)
    expect(
      got.map((entry) => (entry.type === 'value' ? (entry.value as { id: string }).id : entry.problem.kind)),
    ).toEqual(['1', 'torn', '3'])
    await expect(appender.append({ type: 'a', id: '4' } as never)).rejects.toThrow(/closed/)
  })

  it('writes what the record was when append was called', async () => {
    const path = join(dir, 'log.jsonl')
    const appender = await JsonlAppender.open(path, 'never')
    const record = { type: 'a', id: '1', value: 1 }
    const pending = appender.append(record as never)
    record.value = 2
    await pending
    await appender.close()
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ type: 'a', id: '1', value: 1 })
  })
})

describe('meta and atomic writes', () => {
  it('replaces files atomically without leaving temp files', async () => {
    const path = join(dir, 'meta.json')
    await writeFileAtomic(path, 'one')
    await writeFileAtomic(path, 'two')
    expect(await readFile(path, 'utf8')).toBe('two')
    expect(await readdir(dir)).toEqual(['meta.json'])
  })

  it('parses meta.json as a value, never throwing', () => {
    expect(parseMeta('{', 'm').ok).toBe(false)
    expect(parseMeta('[]', 'm').ok).toBe(false)
    expect(parseMeta('{"sessionId":"s","projectRoot":"/p","formatVersion":99}', 'm').ok).toBe(false)
    expect(parseMeta('{"sessionId":"s","projectRoot":"/p","formatVersion":1,"createdAt":"x"}', 'm').ok).toBe(
      true,
    )
  })
})

describe('file store', () => {
  it('keeps meta.json in step with title, model and mode records', async () => {
    const store = openStore({ dataDir: dir })
    const created = await store.create({ projectRoot: dir, sessionId: 'meta-test' })
    if (!created.ok) throw new Error(created.error.message)
    const factory = new RecordFactory()
    await created.value.append(factory.title('A title'))
    await created.value.append({ type: 'modelChanged', id: 'mm', at: 'now', model: 'm1' })
    await created.value.close()
    const meta = await store.readMeta('meta-test')
    expect(meta.ok && meta.value).toMatchObject({
      title: 'A title',
      model: 'm1',
      sessionId: 'meta-test',
      projectRoot: dir,
    })
    const updated = await store.updateMeta('meta-test', { title: 'Renamed' })
    expect(updated.ok && updated.value.title).toBe('Renamed')
    expect((await store.create({ projectRoot: dir, sessionId: 'meta-test' })).ok).toBe(false)
  })

  it('mirrors title, model and mode without holding their appends; reads and lists see them at once', async () => {
    const store = openStore({ dataDir: dir })
    const created = await store.create({ projectRoot: dir, sessionId: 'meta-burst' })
    if (!created.ok) throw new Error(created.error.message)
    const log = created.value
    const factory = new RecordFactory()
    const path = sessionPaths(dir, 'meta-burst').meta
    // A session's start journals these back to back, before its first request.
    await log.append({ type: 'modeChanged', id: 'mo', at: 'now', mode: 'acceptEdits' })
    await log.append({ type: 'modelChanged', id: 'mm', at: 'now', model: 'm1' })
    await log.append(factory.title('Burst'))
    const meta = await store.readMeta('meta-burst')
    expect(meta.ok && meta.value).toMatchObject({ mode: 'acceptEdits', model: 'm1', title: 'Burst' })
    expect((await store.list()).find((row) => row.sessionId === 'meta-burst')?.title).toBe('Burst')
    expect(JSON.parse(await readFile(path, 'utf8'))).toMatchObject({ title: 'Burst', model: 'm1' })
    await log.close()
    // No temp file is left behind by the writes that took several changes at once.
    expect((await readdir(dirname(path))).filter((name) => name.endsWith('.tmp'))).toEqual([])
  })

  it('lists a session whose meta.json is broken from its log header', async () => {
    const store = openStore({ dataDir: dir })
    const created = await store.create({ projectRoot: '/p', sessionId: 'broken-meta' })
    if (!created.ok) throw new Error(created.error.message)
    await created.value.close()
    await writeFile(sessionPaths(dir, 'broken-meta').meta, '{ not json')
    const rows = await store.list({ projectRoot: '/p' })
    expect(rows.map((row) => row.sessionId)).toEqual(['broken-meta'])
  })

  it('forks with the agents seen before the cut and shares artifacts', async () => {
    const store = openStore({ dataDir: dir })
    const created = await store.create({ projectRoot: '/p', sessionId: 'parent' })
    if (!created.ok) throw new Error(created.error.message)
    const log = created.value
    const factory = new RecordFactory()
    const agent = {
      id: 'ag1',
      agentType: 'explore',
      description: 'd',
      status: 'done' as const,
      background: false,
      depth: 1,
      usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
      cost: { inputUsd: 0, outputUsd: 0, cacheReadUsd: 0, cacheWriteUsd: 0, totalUsd: 0 },
      worktree: { type: 'none' as const },
    }
    const turn = factory.turn('one', 1)
    for (const record of turn) await log.append(record)
    await log.append({ type: 'agentUpdated', id: 'au', at: 'now', agent })
    await log.appendAgent('ag1', factory.message('assistant', [{ type: 'text', text: 'agent says hi' }]))
    await log.close()
    const artifact = await store.writeArtifact('parent', 'spilled output', 'txt')
    const forked = await store.fork('parent', { uptoRecordId: 'au', newSessionId: 'child' })
    expect(forked).toEqual({ ok: true, value: 'child' })
    const agentReplay = await store.replayAgent('child', 'ag1')
    expect(agentReplay.ok && agentReplay.value.snapshot.workingSet).toHaveLength(1)
    if (!artifact.ok) throw new Error('artifact')
    const name = artifact.value.split('/').at(-1) ?? ''
    expect(await readFile(join(sessionPaths(dir, 'child').artifactsDir, name), 'utf8')).toBe('spilled output')
    const early = await store.fork('parent', { uptoRecordId: turn[0]!.id, newSessionId: 'early' })
    expect(early.ok).toBe(true)
    expect((await stat(sessionPaths(dir, 'early').agentsDir).catch(() => undefined)) === undefined).toBe(true)
  })
})
