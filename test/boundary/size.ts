import { readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'
import { sourceFiles } from './cycles.js'

/** The longest a source file may be, in lines. */
export const MAX_FILE_LINES = 500
/** The longest a function may be, first to last line. */
export const MAX_FUNCTION_LINES = 150

/** One file or function over its limit: where it is and how long it is. */
export type SizeOffender =
  | { kind: 'file'; path: string; lines: number }
  | { kind: 'function'; path: string; name: string; line: number; lines: number }

// Tests may be as long as their cases; fixtures are data, not code.
function isTestFile(name: string): boolean {
  return /\.test(-d)?\.(ts|tsx|mts)$/.test(name)
}

type FunctionNode =
  | ts.FunctionDeclaration
  | ts.MethodDeclaration
  | ts.ConstructorDeclaration
  | ts.GetAccessorDeclaration
  | ts.SetAccessorDeclaration
  | ts.ArrowFunction
  | ts.FunctionExpression

function isFunctionNode(node: ts.Node): node is FunctionNode {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  )
}

function propertyName(name: ts.PropertyName, source: ts.SourceFile): string {
  return ts.isIdentifier(name) || ts.isPrivateIdentifier(name) || ts.isStringLiteral(name)
    ? name.text
    : name.getText(source)
}

// A function expression takes the name of what holds it: `const x = () => …`, `{ x: () => … }`,
// `x = function …`, or the call it is passed to (`server.on(…) callback`).
function ownName(node: ts.Node, source: ts.SourceFile): string | undefined {
  if (ts.isClassDeclaration(node) || ts.isClassExpression(node)) return node.name?.text ?? '<class>'
  if (!isFunctionNode(node)) return undefined
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  if (ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node) || ts.isAccessor(node)) {
    return node.name ? propertyName(node.name, source) : '<default>'
  }
  if (ts.isFunctionExpression(node) && node.name) return node.name.text
  const parent = node.parent
  if (ts.isVariableDeclaration(parent) && ts.isIdentifier(parent.name)) return parent.name.text
  if ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.initializer === node) {
    return propertyName(parent.name, source)
  }
  if (ts.isBinaryExpression(parent)) return parent.left.getText(source)
  if (ts.isCallExpression(parent)) return `${parent.expression.getText(source)}(…) callback`
  if (ts.isReturnStatement(parent)) return '<returned>'
  return '<anonymous>'
}

/** Every function in `text` with its qualified name (`Class.method`, `outer.inner`), start line and length. */
export function functionLengths(
  text: string,
  fileName = 'file.ts',
): Array<{ name: string; line: number; lines: number }> {
  const kind = fileName.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, kind)
  const found: Array<{ name: string; line: number; lines: number }> = []
  const visit = (node: ts.Node, scope: readonly string[]): void => {
    const name = ownName(node, source)
    const inner = name === undefined ? scope : [...scope, name]
    if (isFunctionNode(node)) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      found.push({ name: inner.join('.'), line: first + 1, lines: last - first + 1 })
    }
    ts.forEachChild(node, (child) => visit(child, inner))
  }
  visit(source, [])
  return found
}

function lineCount(text: string): number {
  const lines = text.split('\n')
  return text.endsWith('\n') ? lines.length - 1 : lines.length
}

/**
 * Every non-test source file under `dirs` longer than {@link MAX_FILE_LINES} and every function in
 * them longer than {@link MAX_FUNCTION_LINES}, paths relative to `root`, in path order.
 */
export function findSizeOffenders(root: string, dirs: readonly string[]): SizeOffender[] {
  const offenders: SizeOffender[] = []
  const files = dirs
    .flatMap((dir) => sourceFiles(join(root, dir)))
    .filter((file) => !isTestFile(file))
    .sort()
  for (const file of files) {
    const path = relative(root, file)
    const text = readFileSync(file, 'utf8')
    const lines = lineCount(text)
    if (lines > MAX_FILE_LINES) offenders.push({ kind: 'file', path, lines })
    // A file no longer than the function limit cannot hold a function over it: skip the parse.
    if (lines <= MAX_FUNCTION_LINES) continue
    for (const fn of functionLengths(text, file)) {
      if (fn.lines > MAX_FUNCTION_LINES) offenders.push({ kind: 'function', path, ...fn })
    }
  }
  return offenders
}

/** How an offender is named in a failure: the path, and `#name` for a function. */
export function offenderKey(offender: SizeOffender): string {
  return offender.kind === 'file' ? offender.path : `${offender.path}#${offender.name}`
}
