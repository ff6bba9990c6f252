import { mkdtempSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Engine } from '@z-engine/engine'
import { ScriptedClient, type ScriptedClientOptions, type ScriptSource } from '@z-engine/engine/testing'
import type { EventEnvelope } from '@z-engine/protocol'
import { render } from 'ink-testing-library'
import { createElement } from 'react'
import { afterEach } from 'vitest'
import { ChatApp, type ChatAppProps } from '../../src/tui/app.js'
import { ChatController, loadSlashCommands } from '../../src/tui/chat-controller.js'
import { EventFeed } from '../../src/tui/event-feed.js'

const cleanups: Array<() => Promise<void> | void> = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

/** A fresh temp dir (symlinks resolved), removed after the test. */
export function tempDir(prefix: string): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

/** Keys as a terminal sends them. */
export const KEYS = {
  enter: '\r',
  escape: '\u001b',
  shiftTab: '\u001b[Z',
  tab: '\t',
  right: '\u001b[C',
  down: '\u001b[B',
  up: '\u001b[A',
  ctrlC: '\u0003',
  backspace: '\u007f',
  ctrlU: '\u0015',
} as const

/** An engine over temp dirs whose model is a scripted client, plus the events it published. */
export async function scriptedEngine(
  script: ScriptSource,
  options: ScriptedClientOptions = {},
  dirs: { home?: string; project?: string } = {},
) {
  const home = dirs.home ?? tempDir('ze-tui-home-')
  const project = dirs.project ?? tempDir('ze-tui-proj-')
  const client = new ScriptedClient(script, options)
  const feed = new EventFeed()
  const envelopes: EventEnvelope[] = []
  const engine = await Engine.create({
    home,
    dataDir: join(home, 'data'),
    configDir: join(home, 'config'),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home },
    clientFactory: { createClient: () => ({ ok: true, client, provider: 'scripted', model: 'scripted' }) },
    onEvent: (envelope) => {
      envelopes.push(envelope)
      feed.publish(envelope)
    },
  })
  cleanups.push(() => engine.shutdown())
  return { engine, client, feed, envelopes, home, project }
}

/** Renders the chat over a real engine and session; `type` writes keys, `waitFor` polls the frame. */
export async function renderChat(
  setup: Awaited<ReturnType<typeof scriptedEngine>>,
  open: { resume?: string; mode?: 'default' | 'acceptEdits' | 'plan' | 'bypass' } = {},
  /** Keys typed in the early prompt box before the chat was ready. */
  typed?: ChatAppProps['typed'],
  /** The chat's clock (its Ctrl-C and Esc windows); the real one by default. */
  now?: ChatAppProps['now'],
) {
  const session = await setup.engine.openSession({ projectRoot: setup.project, ...open })
  const commands = await loadSlashCommands(setup.engine, setup.project)
  const controller = new ChatController(
    setup.engine,
    setup.feed,
    session,
    { projectRoot: setup.project },
    commands,
  )
  const initial = await controller.initialState()
  let exits = 0
  const app = render(
    createElement(ChatApp, {
      controller,
      initial,
      onExit: () => exits++,
      ...(typed ? { typed } : {}),
      ...(now ? { now } : {}),
    }),
  )
  cleanups.push(() => app.unmount())
  const frame = () => app.lastFrame() ?? ''
  const waitFor = async (predicate: (text: string) => boolean, what: string, timeoutMs = 60_000) => {
    const started = Date.now()
    while (!predicate(frame())) {
      if (Date.now() - started > timeoutMs)
        throw new Error(`Timed out waiting for ${what}. Last frame:\n${frame()}`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
    return frame()
  }
  const type = async (...chunks: string[]) => {
    for (const chunk of chunks) {
      app.stdin.write(chunk)
      // Let Ink flush a lone Esc (it waits one tick for the rest of a sequence) and re-render.
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  return {
    unmount: () => app.unmount(),
    session,
    controller,
    frame,
    waitFor,
    type,
    exits: () => exits,
    /** Makes the fake terminal `columns` wide and tells the app, as a terminal resize does. */
    resize: (columns: number) => {
      Object.defineProperty(app.stdout, 'columns', { value: columns, configurable: true })
      app.stdout.emit('resize')
    },
    /** Everything written to the terminal so far, frame by frame. */
    written: (): string[] => [...app.stdout.frames],
  }
}
