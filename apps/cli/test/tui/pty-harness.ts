/** Drives the built CLI in a real pseudo-terminal (node-pty) for the chat's end-to-end tests. */
import { spawnSync } from 'node:child_process'
import { closeSync, type Dirent, openSync, readdirSync, readFileSync, writeSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { type IPty, spawn } from '@lydell/node-pty'
import { afterEach } from 'vitest'

/** The built CLI (`pnpm build` first). */
export const BIN = join(dirname(fileURLToPath(import.meta.url)), '../../dist/bin.js')

/** Removes colour, cursor movement and erase sequences: what is left is the text drawn. */
export function plain(raw: string): string {
  return raw.replace(
    /\u001b\[[0-9;?<>=]*[ -/]*[@-~]|\u001b\][^\u0007]*\u0007|\u001b[()][0-9A-Za-z]|\u001b[=>78]/g,
    '',
  )
}

const running: Array<{ pty: IPty; exited: Promise<void> }> = []
afterEach(async () => {
  const left = running.splice(0)
  for (const { pty } of left) {
    try {
      pty.kill()
    } catch {
      // Already exited.
    }
  }
  // A hung-up chat still flushes its journal: wait (up to 5 s) before the temp folders are removed.
  await Promise.race([
    Promise.all(left.map(({ exited }) => exited)),
    new Promise((resolve) => setTimeout(resolve, 5000)),
  ])
})

/** A CLI process in a pty (110×40 unless given): `waitFor` looks only at output after the last `mark()`. */
export function startCli(
  args: string[],
  env: Record<string, string>,
  size: { cols: number; rows: number } = { cols: 110, rows: 40 },
) {
  const pty = spawn(process.execPath, [BIN, ...args], { name: 'xterm-256color', ...size, env })
  running.push({ pty, exited: new Promise<void>((resolve) => pty.onExit(() => resolve())) })
  let output = ''
  let markAt = 0
  let exitCode: number | undefined
  pty.onData((data) => {
    output += data
  })
  pty.onExit(({ exitCode: code }) => {
    exitCode = code
  })
  const since = () => plain(output.slice(markAt))
  return {
    mark: () => {
      markAt = output.length
    },
    since,
    all: () => plain(output),
    exitCode: () => exitCode,
    kill: (signal: string) => pty.kill(signal),
    resize: (cols: number, rows: number) => pty.resize(cols, rows),
    /** Writes bytes as one chunk (a paste, an escape sequence). */
    write: (data: string) => pty.write(data),
    // A ceiling for a loaded machine, not a wait: it returns as soon as the text is there.
    async waitFor(predicate: (text: string) => boolean, what: string, timeoutMs = 60_000): Promise<string> {
      const started = Date.now()
      while (!predicate(since())) {
        if (Date.now() - started > timeoutMs)
          throw new Error(`Timed out waiting for ${what}. Output since the mark:\n${since().slice(-3000)}`)
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
      return since()
    },
    /** Types like a person: one key at a time, so Esc is never read as the start of a sequence. */
    async type(...keys: string[]) {
      for (const key of keys) {
        pty.write(key)
        await new Promise((resolve) => setTimeout(resolve, key.length > 1 ? 60 : 25))
      }
    },
    /** Waits until the newest status line no longer says a turn is running. */
    async idle(what: string) {
      await this.waitFor((out) => {
        // A busy status line may be cut before its '(shift+tab)' on a narrow screen, so both marks count.
        const status = out
          .split('\n')
          .filter((line) => line.includes('(shift+tab)') || line.includes('working'))
        const last = status.at(-1)
        return last !== undefined && !last.includes('working')
      }, what)
    },
    async typeText(text: string) {
      for (const character of text) await this.type(character)
    },
  }
}

/**
 * Every file under a folder (none when it does not exist). The CLI may still be writing there (a
 * checkpoint's git creates and renames temporary objects), so an entry that is gone by the time it
 * is looked at is skipped, not an error.
 */
export function filesUnder(dir: string): string[] {
  let entries: Dirent[]
  try {
    entries = readdirSync(dir, { withFileTypes: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path) : [path]
  })
}

/** The text of every session journal under a data folder (to see what reached the model). */
export function journals(dataDir: string): string {
  return filesUnder(dataDir)
    .filter((path) => path.endsWith('.jsonl') && !path.endsWith('prompt-history.jsonl'))
    .map((path) => readFileSync(path, 'utf8'))
    .join('\n')
}

const gates: number[] = []
afterEach(() => {
  for (const fd of gates.splice(0)) closeSync(fd)
})

/**
 * A held gate for the chat (the CLI's `Z_ENGINE_TEST_CHAT_GATE` seam): put `variables` in the chat's
 * environment and it stops just before it takes over from the early prompt box, until `open()`.
 * The gate is a FIFO this side keeps open read-write until the test ends (on Linux that never
 * blocks), so a byte written before the chat reaches the gate waits there for it.
 */
export function chatGate(dir: string) {
  const path = join(dir, 'chat-gate')
  const made = spawnSync('mkfifo', [path], { encoding: 'utf8' })
  if (made.status !== 0) throw new Error(`mkfifo ${path} failed: ${made.stderr}`)
  const fd = openSync(path, 'r+')
  gates.push(fd)
  return {
    variables: { Z_ENGINE_TEST_CHAT_GATE: path },
    open: () => writeSync(fd, 'open\n'),
  }
}

/** The environment of a chat in a temp home: its own data and config folders, a colour terminal. */
export function ptyEnv(home: string) {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_CONFIG_HOME: join(home, 'config'),
    TERM: 'xterm-256color',
  }
}

/** Types the keys that end the chat, waits for its exit line, then (up to 60 s) for the process to end. */
export async function quitChat(cli: ReturnType<typeof startCli>, ...keys: string[]): Promise<void> {
  await cli.type(...keys)
  await cli.waitFor((out) => out.includes('Resume it with'), 'the exit line')
  const started = Date.now()
  while (cli.exitCode() === undefined && Date.now() - started < 60_000)
    await new Promise((resolve) => setTimeout(resolve, 25))
}
