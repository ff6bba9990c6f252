import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type {
  CallHierarchyIncomingCall,
  CallHierarchyOutgoingCall,
  Diagnostic,
  DocumentSymbol,
  Hover,
  Location,
  LocationLink,
  MarkedString,
  SymbolInformation,
  WorkspaceEdit,
  WorkspaceSymbol,
} from 'vscode-languageserver-protocol/node'

/** Reads one line (0-based) of a file, for showing a location's code. */
export type LineReader = (path: string, line: number) => Promise<string | undefined>

/** Entries a list shows at most; the rest are counted. */
export const MAX_ENTRIES = 200

const SEVERITY = ['', 'error', 'warning', 'info', 'hint'] as const
const SYMBOL_KIND = [
  '',
  'file',
  'module',
  'namespace',
  'package',
  'class',
  'method',
  'property',
  'field',
  'constructor',
  'enum',
  'interface',
  'function',
  'variable',
  'constant',
  'string',
  'number',
  'boolean',
  'array',
  'object',
  'key',
  'null',
  'enum member',
  'struct',
  'event',
  'operator',
  'type parameter',
] as const

/** A file URI as a path relative to the root (absolute when outside it). */
export function displayUri(uri: string, root: string): string {
  const path = uri.startsWith('file:') ? fileURLToPath(uri) : uri
  const inside = relative(root, path)
  return inside.startsWith('..') || inside === '' ? path : inside
}

/** Locations (definition, references, implementation) with the code on each line. */
export async function renderLocations(
  found: Location | Location[] | LocationLink[] | null | undefined,
  root: string,
  readLine: LineReader,
  what: string,
): Promise<string> {
  const list = found === null || found === undefined ? [] : Array.isArray(found) ? found : [found]
  const locations = list.map((entry) =>
    'targetUri' in entry ? { uri: entry.targetUri, range: entry.targetSelectionRange } : entry,
  )
  if (locations.length === 0) return `No ${what} found.`
  const lines: string[] = []
  for (const location of locations.slice(0, MAX_ENTRIES)) {
    const path = location.uri.startsWith('file:') ? fileURLToPath(location.uri) : location.uri
    const code = (await readLine(path, location.range.start.line))?.trim() ?? ''
    lines.push(
      `${displayUri(location.uri, root)}:${location.range.start.line + 1}:${location.range.start.character + 1}: ${code}`,
    )
  }
  const more = locations.length > MAX_ENTRIES ? `\n… and ${locations.length - MAX_ENTRIES} more` : ''
  return `${locations.length} ${what}${locations.length === 1 ? '' : 's'}:\n${lines.join('\n')}${more}`
}

/** A hover's text. */
export function renderHover(hover: Hover | null | undefined): string {
  if (!hover) return 'No hover information at this position.'
  const parts = Array.isArray(hover.contents) ? hover.contents : [hover.contents]
  const text = parts
    .map((part: MarkedString | { kind: string; value: string }) =>
      typeof part === 'string'
        ? part
        : 'language' in part
          ? `\`\`\`${part.language}\n${part.value}\n\`\`\``
          : part.value,
    )
    .join('\n\n')
    .trim()
  return text === '' ? 'No hover information at this position.' : text
}

/** A document's symbols as an indented outline. */
export function renderDocumentSymbols(
  symbols: Array<DocumentSymbol | SymbolInformation> | null | undefined,
): string {
  if (!symbols || symbols.length === 0) return 'No symbols in this file.'
  const lines: string[] = []
  const walk = (entries: Array<DocumentSymbol | SymbolInformation>, depth: number) => {
    for (const symbol of entries) {
      if (lines.length >= MAX_ENTRIES) return
      const line = 'location' in symbol ? symbol.location.range.start.line : symbol.selectionRange.start.line
      lines.push(
        `${'  '.repeat(depth)}${SYMBOL_KIND[symbol.kind] ?? 'symbol'} ${symbol.name} (line ${line + 1})`,
      )
      if ('children' in symbol && symbol.children) walk(symbol.children, depth + 1)
    }
  }
  walk(symbols, 0)
  return lines.join('\n')
}

/** Workspace symbols matching a query. */
export function renderWorkspaceSymbols(
  symbols: Array<SymbolInformation | WorkspaceSymbol> | null | undefined,
  root: string,
): string {
  if (!symbols || symbols.length === 0) return 'No matching symbols.'
  const lines = symbols.slice(0, MAX_ENTRIES).map((symbol) => {
    const where =
      'range' in symbol.location
        ? `${displayUri(symbol.location.uri, root)}:${symbol.location.range.start.line + 1}`
        : displayUri(symbol.location.uri, root)
    return `${SYMBOL_KIND[symbol.kind] ?? 'symbol'} ${symbol.name}${symbol.containerName ? ` in ${symbol.containerName}` : ''} — ${where}`
  })
  const more = symbols.length > MAX_ENTRIES ? `\n… and ${symbols.length - MAX_ENTRIES} more` : ''
  return `${lines.join('\n')}${more}`
}

/** Diagnostics of one file, one line each (`line:col severity code: message`). */
export function renderDiagnostics(diagnostics: readonly Diagnostic[], display: string): string {
  if (diagnostics.length === 0) return `No diagnostics in ${display}.`
  const lines = diagnostics.slice(0, MAX_ENTRIES).map((diagnostic) => {
    const origin = [diagnostic.source, diagnostic.code].filter((part) => part !== undefined).join(' ')
    return `${display}:${diagnostic.range.start.line + 1}:${diagnostic.range.start.character + 1} ${SEVERITY[diagnostic.severity ?? 1] ?? 'error'}: ${messageText(diagnostic.message).split('\n').join(' ')}${origin === '' ? '' : ` (${origin})`}`
  })
  return lines.join('\n')
}

/** A diagnostic's message as plain text (LSP 3.18 allows markup). */
function messageText(message: string | { value: string }): string {
  return typeof message === 'string' ? message : message.value
}

/** The edits a rename would make, listed and never applied. */
export async function renderRenameEdits(
  edit: WorkspaceEdit | null | undefined,
  newName: string,
  root: string,
  readLine: LineReader,
): Promise<string> {
  const byFile = new Map<string, Array<{ range: { start: { line: number; character: number } } }>>()
  for (const [uri, edits] of Object.entries(edit?.changes ?? {})) byFile.set(uri, [...edits])
  for (const change of edit?.documentChanges ?? []) {
    if ('textDocument' in change)
      byFile.set(
        change.textDocument.uri,
        change.edits.filter((entry) => 'range' in entry),
      )
  }
  if (byFile.size === 0) return 'The rename changes nothing (or the server cannot rename this symbol).'
  const lines: string[] = []
  let count = 0
  for (const [uri, edits] of byFile) {
    const path = uri.startsWith('file:') ? fileURLToPath(uri) : uri
    for (const entry of edits) {
      count += 1
      if (lines.length >= MAX_ENTRIES) continue
      const code = (await readLine(path, entry.range.start.line))?.trim() ?? ''
      lines.push(
        `${displayUri(uri, root)}:${entry.range.start.line + 1}:${entry.range.start.character + 1}: ${code}`,
      )
    }
  }
  return `Renaming to ${newName} would change ${count} place${count === 1 ? '' : 's'} in ${byFile.size} file${byFile.size === 1 ? '' : 's'} (nothing was changed):\n${lines.join('\n')}`
}

/** Incoming or outgoing calls of a call-hierarchy item. */
export function renderCalls(
  calls: Array<CallHierarchyIncomingCall | CallHierarchyOutgoingCall> | null | undefined,
  direction: 'incoming' | 'outgoing',
  root: string,
): string {
  if (!calls || calls.length === 0) return `No ${direction} calls.`
  return calls
    .slice(0, MAX_ENTRIES)
    .map((call) => {
      const item = 'from' in call ? call.from : call.to
      return `${SYMBOL_KIND[item.kind] ?? 'symbol'} ${item.name} — ${displayUri(item.uri, root)}:${item.selectionRange.start.line + 1}`
    })
    .join('\n')
}
