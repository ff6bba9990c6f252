/**
 * A private Postgres cluster for tests: initdb into a temp dir, started on a free loopback port with a
 * random password, stopped and removed afterwards. Postgres refuses to run as root, so under root (CI)
 * the server runs as `nobody` via runuser. `Z_ENGINE_TEST_POSTGRES_URL` uses an existing server instead.
 * Nothing global is touched. Without Postgres installed this throws (tests fail, never skip silently).
 */
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

/** A running cluster. */
export interface PostgresCluster {
  /** A URL for a new, empty database. */
  createDatabase(): Promise<string>
  /**
   * Stops the server as an operator restart does (`pg_ctl stop -m fast`: connected clients get 57P01,
   * new ones ECONNREFUSED) and resolves once it is down; `start()` brings it back on the same port.
   * Only a private cluster can do this (an external server refuses).
   */
  halt(): Promise<void>
  start(): Promise<void>
  stop(): Promise<void>
}

function binDir(): string {
  const root = '/usr/lib/postgresql'
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : []
  const version = versions[0]
  if (version === undefined)
    throw new Error(
      "Postgres is not installed (no /usr/lib/postgresql/*/bin/initdb): run scripts/setup.sh, which installs Debian's postgresql, or set Z_ENGINE_TEST_POSTGRES_URL.",
    )
  return join(root, version, 'bin')
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolve(port))
    })
  })
}

let counter = 0

async function databaseFactory(baseUrl: string): Promise<PostgresCluster['createDatabase']> {
  const { default: pg } = await import('pg')
  return async () => {
    const name = `gw_test_${process.pid}_${Date.now()}_${counter++}`
    const client = new pg.Client({ connectionString: baseUrl })
    await client.connect()
    try {
      await client.query(`CREATE DATABASE ${name}`)
    } finally {
      await client.end()
    }
    const url = new URL(baseUrl)
    url.pathname = `/${name}`
    return url.toString()
  }
}

/** Starts a cluster (or wraps the one `Z_ENGINE_TEST_POSTGRES_URL` names). */
export async function startPostgres(): Promise<PostgresCluster> {
  const external = process.env.Z_ENGINE_TEST_POSTGRES_URL
  if (external) {
    const refuse = async (): Promise<void> => {
      throw new Error(
        'Z_ENGINE_TEST_POSTGRES_URL names an external server: the restart test needs a private cluster.',
      )
    }
    return {
      createDatabase: await databaseFactory(external),
      halt: refuse,
      start: refuse,
      stop: async () => {},
    }
  }
  const bin = binDir()
  const dir = mkdtempSync(join(tmpdir(), 'gateway-pg-'))
  const data = join(dir, 'data')
  const password = randomBytes(16).toString('hex')
  const asRoot = process.getuid?.() === 0
  const as = async (command: string, args: string[]): Promise<void> => {
    if (asRoot) await run('runuser', ['-u', 'nobody', '--', join(bin, command), ...args], { cwd: dir })
    else await run(join(bin, command), args, { cwd: dir })
  }
  writeFileSync(join(dir, 'pw'), password, { mode: 0o600 })
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'nobody'])
    const uid = Number(stdout.trim())
    chownSync(dir, uid, -1)
    chownSync(join(dir, 'pw'), uid, -1)
  }
  await as('initdb', [
    '-D',
    data,
    '-U',
    'gateway',
    `--pwfile=${join(dir, 'pw')}`,
    '--auth=scram-sha-256',
    '-E',
    'UTF8',
    '--no-sync',
  ])
  const port = await freePort()
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off`
  const start = () =>
    as('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', options, '-w', '-t', '60', 'start'])
  await start()
  const base = `postgres://gateway:${password}@127.0.0.1:${port}/postgres`
  return {
    createDatabase: await databaseFactory(base),
    halt: () => as('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']),
    start,
    async stop() {
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {})
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
