import { readFileSync } from 'node:fs'
import ts from 'typescript'

/** One function (declaration, method, accessor, constructor, arrow or function expression) and its length. */
export interface FunctionSize {
  name: string
  /** First line, 1-based. */
  line: number
  /** Lines from the function's first line to its last, both counted. */
  lines: number
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  const named = node as { name?: ts.Node }
  if (named.name) return named.name.getText(source)
  if (ts.isConstructorDeclaration(node)) return 'constructor'
  const parent = node.parent
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source)
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source)
  if (parent && ts.isPropertyDeclaration(parent)) return parent.name.getText(source)
  return '(anonymous)'
}

/** Every function in one TypeScript source file with its length in lines. */
export function functionSizes(path: string, text = readFileSync(path, 'utf8')): FunctionSize[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true)
  const sizes: FunctionSize[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line
      sizes.push({ name: nameOf(node, source), line: first + 1, lines: last - first + 1 })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return sizes
}

/** Lines in a file (a final newline does not start another). */
export function lineCount(text: string): number {
  return text.endsWith('\n') ? text.split('\n').length - 1 : text.split('\n').length
}
