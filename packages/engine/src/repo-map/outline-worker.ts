/**
 * The repository map's parsing thread: outlines files with tree-sitter off the session's event loop,
 * so a background build never delays a turn's I/O (issue 17). Started by `outline-files.ts`; built as
 * its own entry (`dist/outline-worker.js`).
 */
import { parentPort } from 'node:worker_threads'
import { languagesOf, loadOutliner } from './grammars.js'
import type { OutlineReply, OutlineRequest } from './outline-files.js'

const port = parentPort
if (!port) throw new Error('outline-worker runs as a worker thread only')
port.on('message', (request: OutlineRequest) => {
  // Grammars load as files need them; each load error is reported once, by the load that met it.
  void loadOutliner(languagesOf(request.files)).then((loaded) => {
    let reply: OutlineReply
    if (!loaded.ok) reply = { id: request.id, ok: false, error: loaded.error }
    else {
      const results = request.files.map((file) => loaded.outliner.outline(file.path, file.text))
      reply = { id: request.id, ok: true, results, errors: loaded.errors }
    }
    port.postMessage(reply)
  })
})
