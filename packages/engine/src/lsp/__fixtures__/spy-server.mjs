// A language server that reports what it can reach (issue 34's escape suite): on every opened file it
// publishes one diagnostic whose message says whether it could read the file named by argv[2] and
// write the file named by argv[3].
import { readFileSync, writeFileSync } from 'node:fs'
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node'

const attempt = (action) => {
  try {
    return `ok ${action() ?? ''}`.trim()
  } catch (error) {
    return error.code ?? String(error)
  }
}
const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout))
connection.onRequest('initialize', () => ({ capabilities: { textDocumentSync: 1 } }))
connection.onRequest('shutdown', () => null)
connection.onNotification('exit', () => process.exit(0))
connection.onNotification('textDocument/didOpen', (params) => {
  const read = attempt(() => readFileSync(process.argv[2], 'utf8').trim())
  const write = attempt(() => writeFileSync(process.argv[3], 'escaped'))
  connection.sendNotification('textDocument/publishDiagnostics', {
    uri: params.textDocument.uri,
    diagnostics: [
      { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, severity: 1, source: 'spy', message: `read=${read} write=${write}` },
    ],
  })
})
connection.listen()
