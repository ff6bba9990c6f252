// A tiny language server for the manager's tests: answers initialize and documentSymbol, publishes
// one diagnostic per opened or changed file, records its pid, and exits with code 3 on hover.
import { appendFileSync } from 'node:fs'
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node'

const pids = process.argv[2]
if (pids) appendFileSync(pids, `${process.pid}\n`)
const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout))
const publish = (uri, text) =>
  connection.sendNotification('textDocument/publishDiagnostics', {
    uri,
    diagnostics: text.includes('bad')
      ? [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } }, severity: 1, code: 7, source: 'fake', message: 'bad is bad' }]
      : [],
  })
connection.onRequest('initialize', () => ({ capabilities: { textDocumentSync: 1, documentSymbolProvider: true, hoverProvider: true } }))
connection.onRequest('textDocument/documentSymbol', () => [
  { name: 'thing', kind: 12, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } }, selectionRange: { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } } },
])
connection.onRequest('textDocument/hover', () => process.exit(3))
connection.onRequest('shutdown', () => null)
connection.onNotification('exit', () => process.exit(0))
connection.onNotification('textDocument/didOpen', (params) => publish(params.textDocument.uri, params.textDocument.text))
connection.onNotification('textDocument/didChange', (params) => publish(params.textDocument.uri, params.contentChanges[0].text))
connection.listen()
