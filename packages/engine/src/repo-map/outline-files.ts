import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { OutlineResult } from '@z-engine/context'
import { languagesOf, loadOutliner } from './grammars.js'

/** A batch of files for the parsing thread. */
export interface OutlineRequest {
  id: number
  files: { path: string; text: string }[]
}

/** The parsing thread's answer: one result per file, in order, or why nothing could be parsed. */
export type OutlineReply =
  | { id: number; ok: true; results: OutlineResult[]; errors: string[] }
  | { id: number; ok: false; error: string }

type Outlined = { ok: true; results: OutlineResult[]; errors: string[] } | { ok: false; error: string }

let shared: Promise<Worker | undefined> | undefined
let nextId = 0
const waiting = new Map<number, (reply: OutlineReply | 'stopped') => void>()
/** Threads this module ended on purpose: their exit is no failure. */
const stopped = new WeakSet<Worker>()

/**
 * Outlines files with tree-sitter in a worker thread shared by the process (started on first use,
 * never keeping the process alive while idle), falling back to this thread when no worker can be
 * started. `here`: parse on this thread unless the worker already runs; for a build with a handful
 * of files, where starting a thread (~100 ms of CPU, plus loading tree-sitter there) costs more
 * than the parsing (issue 17). Results come in the order of `files`. When `signal` aborts, the
 * batch is abandoned at once (rejects with the abort reason): its outlines can no longer reach
 * anyone, so nothing waits for them, and a thread parsing only abandoned batches is ended
 * (issue 40: a one-shot run exits without waiting for the parse of a map it will never send).
 */
export async function outlineFiles(
  files: readonly { path: string; text: string }[],
  options: { here?: boolean; signal?: AbortSignal } = {},
): Promise<Outlined> {
  const signal = options.signal
  signal?.throwIfAborted()
  if (options.here && shared === undefined) return outlineHere(files)
  shared ??= startWorker()
  const worker = await shared
  if (signal?.aborted) {
    if (worker && waiting.size === 0) stopWorker(worker)
    signal.throwIfAborted()
  }
  if (!worker) return outlineHere(files)
  // Ended for another caller's abandoned batch while this one waited for it to start: a new one.
  if (stopped.has(worker)) return outlineFiles(files, options)
  const id = nextId++
  let abandon = () => {}
  const reply = await new Promise<OutlineReply | 'stopped' | 'abandoned'>((resolve) => {
    waiting.set(id, resolve)
    abandon = () => {
      waiting.delete(id)
      // No one else waits on this thread: its current parse is for nobody.
      if (waiting.size === 0) stopWorker(worker)
      resolve('abandoned')
    }
    signal?.addEventListener('abort', abandon, { once: true })
    worker.ref()
    worker.postMessage({ id, files: [...files] } satisfies OutlineRequest)
  })
  signal?.removeEventListener('abort', abandon)
  if (reply === 'abandoned') signal!.throwIfAborted()
  if (waiting.size === 0) worker.unref()
  if (reply === 'stopped' || reply === 'abandoned') return outlineHere(files)
  return reply.ok ? { ok: true, results: reply.results, errors: reply.errors } : reply
}

/** Whether the parsing thread is started (or starting); for tests of abandonment. */
export function outlineThreadStarted(): boolean {
  return shared !== undefined
}

/** Batches posted to the parsing thread and not yet answered; for tests of abandonment. */
export function outlineBatchesWaiting(): number {
  return waiting.size
}

/** Ends the parsing thread without waiting; the next batch starts a new one. */
function stopWorker(worker: Worker): void {
  stopped.add(worker)
  shared = undefined
  void worker.terminate()
}

async function outlineHere(files: readonly { path: string; text: string }[]): Promise<Outlined> {
  const loaded = await loadOutliner(languagesOf(files))
  if (!loaded.ok) return loaded
  return {
    ok: true,
    results: files.map((file) => loaded.outliner.outline(file.path, file.text)),
    errors: loaded.errors,
  }
}

/** The built worker next to this module, or (running from TypeScript sources) the .ts one via tsx. */
async function startWorker(): Promise<Worker | undefined> {
  try {
    const built = new URL('./outline-worker.js', import.meta.url)
    const source = new URL('./outline-worker.ts', import.meta.url)
    let worker: Worker
    if (existsSync(fileURLToPath(built))) worker = new Worker(built)
    else if (existsSync(fileURLToPath(source))) {
      // tsx's ESM entry (a require-resolve would give its CommonJS one).
      const tsxPackage = createRequire(import.meta.url).resolve('tsx/package.json')
      const tsx = pathToFileURL(join(dirname(tsxPackage), 'dist', 'esm', 'api', 'index.mjs')).href
      const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source.href)}) })`
      worker = new Worker(bootstrap, { eval: true, execArgv: ['--conditions=@z-engine/source'] })
    } else return undefined
    worker.unref()
    worker.on('message', (reply: OutlineReply) => {
      const resolve = waiting.get(reply.id)
      waiting.delete(reply.id)
      resolve?.(reply)
    })
    const fail = () => {
      // The thread died (or could not load): parse what was waiting, and all later files, here.
      // Ended on purpose, it left nothing waiting, and the next batch starts a new one.
      if (stopped.has(worker)) return
      shared = Promise.resolve(undefined)
      for (const resolve of waiting.values()) resolve('stopped')
      waiting.clear()
    }
    worker.on('error', fail)
    worker.on('exit', fail)
    return worker
  } catch {
    return undefined
  }
}
