import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LOG_FORMAT_VERSION } from '@z-engine/protocol'
import { afterEach, describe, expect, it } from 'vitest'
import { openStore, RecordFactory, sessionPaths } from '../src/index.js'

const dirs: string[] = []
const mounts: string[] = []
afterEach(() => {
  for (const mount of mounts.splice(0)) execFileSync('umount', [mount])
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'z-store-hygiene-'))
  dirs.push(dir)
  return dir
}

/** A tiny tmpfs (a real full disk), when this machine lets us mount one (root with CAP_SYS_ADMIN). */
function tinyTmpfs(sizeKiB: number, readOnly = false): string | undefined {
  const dir = temp()
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKiB}k${readOnly ? ',ro' : ''}`, 'tmpfs', dir], {
      stdio: 'ignore',
    })
  } catch {
    return undefined
  }
  mounts.push(dir)
  return dir
}
const CAN_MOUNT = (() => {
  const probe = tinyTmpfs(16)
  if (probe) execFileSync('umount', [mounts.pop() as string])
  return probe !== undefined
})()

const mode = (path: string) => statSync(path).mode & 0o777

describe('file modes', () => {
  it('creates session directories 0700 and logs, meta, agent logs and artifacts 0600', async () => {
    const dataDir = join(temp(), 'data')
    const store = openStore({ dataDir })
    const created = await store.create({ projectRoot: '/p', sessionId: 's1' })
    if (!created.ok) throw new Error(created.error.message)
    const factory = new RecordFactory('t')
    await created.value.appendAgent('agent-1', factory.startTurn('hi').records[0]!)
    const artifact = await store.writeArtifact('s1', 'spilled output', 'txt')
    if (!artifact.ok) throw new Error(artifact.error.message)
    await created.value.close()
    const paths = sessionPaths(dataDir, 's1')
    for (const dir of [dataDir, join(dataDir, 'sessions'), paths.dir, paths.agentsDir, paths.artifactsDir])
      expect(mode(dir), dir).toBe(0o700)
    for (const file of [paths.log, paths.meta, join(paths.agentsDir, 'agent-1.jsonl'), artifact.value])
      expect(mode(file), file).toBe(0o600)
  })
})

describe('format versions', () => {
  it('refuses to append to a log a newer z-engine wrote, and leaves it untouched', async () => {
    const dataDir = temp()
    const paths = sessionPaths(dataDir, 'future')
    mkdirSync(paths.dir, { recursive: true })
    const header = {
      type: 'header',
      id: 'h',
      at: '2030-01-01T00:00:00.000Z',
      formatVersion: LOG_FORMAT_VERSION + 1,
      sessionId: 'future',
      projectRoot: '/p',
      createdAt: '2030-01-01T00:00:00.000Z',
    }
    writeFileSync(paths.log, `${JSON.stringify(header)}\n{"type":"somethingNew","id":"x"}\n`)
    const before = readFileSync(paths.log, 'utf8')
    const opened = await openStore({ dataDir }).open('future')
    expect(opened.ok).toBe(false)
    if (opened.ok) return
    expect(opened.error.code).toBe('newerFormat')
    expect(opened.error.message).toContain(`log format ${LOG_FORMAT_VERSION + 1}`)
    expect(opened.error.message).toContain('upgrade z-engine')
    expect(readFileSync(paths.log, 'utf8')).toBe(before)
  })
})

describe.runIf(CAN_MOUNT)('a full disk or an unwritable data dir (real tmpfs)', () => {
  it('a full disk fails the append with a clear error, cuts the torn line back and refuses later records', async () => {
    const disk = tinyTmpfs(64) as string
    const store = openStore({ dataDir: disk })
    const created = await store.create({ projectRoot: '/p', sessionId: 'full' })
    if (!created.ok) throw new Error(created.error.message)
    const log = created.value
    const factory = new RecordFactory('r')
    const { turnId, records } = factory.startTurn('go')
    for (const record of records) await log.append(record)
    const big = factory.message('user', [{ type: 'text', text: 'x'.repeat(200_000) }], turnId)
    await expect(log.append(big)).rejects.toThrow(/disk is full; free space/)
    // No torn record: every line is whole JSON, and the big one is not there at all.
    const text = readFileSync(sessionPaths(disk, 'full').log, 'utf8')
    expect(text.endsWith('\n')).toBe(true)
    const lines = text.trimEnd().split('\n')
    expect(lines.map((line) => JSON.parse(line).type)).toEqual(['header', ...records.map((r) => r.type)])
    // A later (small) record is refused too: a gap would replay as another history.
    await expect(log.append(factory.finishTurn(turnId)[0]!)).rejects.toThrow(/disk is full/)
    await log.close().catch(() => {})
  })

  it('an unwritable data dir fails create with a clear error', async () => {
    const readOnly = tinyTmpfs(64, true) as string
    const created = await openStore({ dataDir: readOnly }).create({ projectRoot: '/p' })
    expect(created.ok).toBe(false)
    if (created.ok) return
    expect(created.error.code).toBe('io')
    expect(created.error.message).toMatch(/is not writable \(EROFS\); fix its permissions/)
  })
})
