import type { Node } from 'web-tree-sitter'
import { definition, textBefore } from './signature.js'
import type { Definition } from './types.js'

const CONSTANT_NAME = /^[A-Z][A-Z0-9_]*$/

/**
 * Outlines Python: functions, classes and their methods (decorated or not), and UPPER_CASE
 * constants at module and class level. Function bodies are never entered.
 */
export function outlinePython(root: Node, source: string): Definition[] {
  const out: Definition[] = []
  visitBlock(root.namedChildren, 0, source, out)
  for (const definition of out) definition.exported = !definition.name.startsWith('_')
  return out
}

function visitBlock(nodes: readonly Node[], depth: number, source: string, out: Definition[]): void {
  for (const node of nodes) visit(node, depth, source, out)
}

function visit(node: Node, depth: number, source: string, out: Definition[]): void {
  switch (node.type) {
    case 'decorated_definition': {
      const inner = node.childForFieldName('definition')
      if (inner) visit(inner, depth, source, out)
      return
    }
    case 'function_definition': {
      const name = node.childForFieldName('name')?.text
      if (!name) return
      const kind = depth > 0 ? 'method' : 'function'
      out.push(definition(kind, node, name, textBefore(node, node.childForFieldName('body'), source), depth))
      return
    }
    case 'class_definition': {
      const name = node.childForFieldName('name')?.text
      const body = node.childForFieldName('body')
      if (!name) return
      out.push(definition('class', node, name, textBefore(node, body, source), depth))
      if (body && depth < 3) visitBlock(body.namedChildren, depth + 1, source, out)
      return
    }
    case 'expression_statement': {
      const assignment = node.namedChildren[0]
      if (assignment?.type !== 'assignment') return
      const left = assignment.childForFieldName('left')
      if (left?.type !== 'identifier' || !CONSTANT_NAME.test(left.text)) return
      const signature = textBefore(assignment, assignment.childForFieldName('right'), source)
      out.push(definition('constant', assignment, left.text, signature, depth))
      return
    }
    default:
      return
  }
}
