// Child process of crash.test.ts: appends realistic records to one session until it is killed,
// printing each record's id once its append has resolved.
import { openStore, RecordFactory } from '../src/index.js'

const [dataDir, sessionId, prefix] = process.argv.slice(2)
if (dataDir === undefined || sessionId === undefined || prefix === undefined) {
  process.stderr.write('usage: crash-writer <dataDir> <sessionId> <prefix>\n')
  process.exit(2)
}
const store = openStore({ dataDir })
const opened = await store.open(sessionId)
const log = opened.ok ? opened.value : await create()
const factory = new RecordFactory(prefix)
process.stdout.write('ready\n')
for (let turn = 0; ; turn++) {
  const { turnId, records } = factory.startTurn(`request ${turn}`)
  records.push(...factory.toolRound(turnId, 3))
  // Now and then a big tool result, so a kill can land inside a multi-page write.
  const size = turn % 4 === 1 ? 6_000_000 : 20_000
  records.push(factory.message('user', [{ type: 'text', text: 'x'.repeat(size) }], turnId))
  records.push(...factory.finishTurn(turnId))
  for (const record of records) {
    const big = JSON.stringify(record).length > 1_000_000
    // Announced so the parent can aim some kills at a write in progress.
    if (big) process.stdout.write('big\n')
    await log.append(record)
    process.stdout.write(`${record.id}\n`)
  }
}

async function create() {
  const created = await store.create({ projectRoot: '/projects/crash', sessionId: sessionId ?? '' })
  if (!created.ok) throw new Error(created.error.message)
  return created.value
}
