import type { Node } from 'web-tree-sitter'
import { definition, textBefore } from './signature.js'
import type { Definition } from './types.js'

/**
 * Outlines TypeScript, TSX and JavaScript (the grammars share node names): functions, classes and
 * their methods, interfaces, type aliases, enums, top-level `const`s and namespaces. Function
 * bodies are never entered, so locals stay out.
 */
export function outlineTypeScript(root: Node, source: string): Definition[] {
  const out: Definition[] = []
  for (const node of root.namedChildren) {
    const first = out.length
    visitStatement(node, 0, source, out)
    const exported = node.type === 'export_statement' || node.type === 'ambient_declaration'
    for (let i = first; i < out.length; i++) out[i]!.exported = exported
  }
  return out
}

function visitStatements(nodes: readonly Node[], depth: number, source: string, out: Definition[]): void {
  for (const node of nodes) visitStatement(node, depth, source, out)
}

function visitStatement(node: Node, depth: number, source: string, out: Definition[]): void {
  switch (node.type) {
    case 'export_statement': {
      const declaration = node.childForFieldName('declaration')
      if (declaration) visitStatement(declaration, depth, source, out)
      return
    }
    case 'ambient_declaration':
      visitStatements(node.namedChildren, depth, source, out)
      return
    case 'expression_statement': {
      // `namespace X {}` parses as an expression statement holding an internal_module.
      const inner = node.namedChildren[0]
      if (inner?.type === 'internal_module') visitStatement(inner, depth, source, out)
      return
    }
    case 'function_declaration':
    case 'generator_function_declaration': {
      const name = node.childForFieldName('name')?.text
      if (!name) return
      // After overload signatures, the implementation's signature adds nothing.
      const previous = out.at(-1)
      if (previous?.kind === 'function' && previous.name === name && previous.depth === depth) return
      out.push(
        definition('function', node, name, textBefore(node, node.childForFieldName('body'), source), depth),
      )
      return
    }
    case 'function_signature': {
      const name = node.childForFieldName('name')?.text
      if (name) out.push(definition('function', node, name, node.text.replace(/;\s*$/, ''), depth))
      return
    }
    case 'class_declaration':
    case 'abstract_class_declaration': {
      const name = node.childForFieldName('name')?.text
      const body = node.childForFieldName('body')
      if (!name) return
      out.push(definition('class', node, name, textBefore(node, body, source), depth))
      if (body) visitClassBody(body, depth + 1, source, out)
      return
    }
    case 'interface_declaration': {
      const name = node.childForFieldName('name')?.text
      if (name)
        out.push(
          definition(
            'interface',
            node,
            name,
            textBefore(node, node.childForFieldName('body'), source),
            depth,
          ),
        )
      return
    }
    case 'type_alias_declaration': {
      const name = node.childForFieldName('name')?.text
      if (name) out.push(definition('type', node, name, node.text.replace(/;\s*$/, ''), depth))
      return
    }
    case 'enum_declaration': {
      const name = node.childForFieldName('name')?.text
      if (name)
        out.push(
          definition('enum', node, name, textBefore(node, node.childForFieldName('body'), source), depth),
        )
      return
    }
    case 'lexical_declaration':
      if (node.child(0)?.type === 'const') visitConstants(node, depth, source, out)
      return
    case 'internal_module':
    case 'module': {
      const name = node.childForFieldName('name')?.text
      const body = node.childForFieldName('body')
      if (!name) return
      out.push(definition('module', node, name, textBefore(node, body, source), depth))
      if (body && depth < 3) visitStatements(body.namedChildren, depth + 1, source, out)
      return
    }
    default:
      return
  }
}

function visitConstants(node: Node, depth: number, source: string, out: Definition[]): void {
  for (const declarator of node.namedChildren) {
    if (declarator.type !== 'variable_declarator') continue
    const nameNode = declarator.childForFieldName('name')
    if (nameNode?.type !== 'identifier') continue // destructuring patterns define no single name
    const value = declarator.childForFieldName('value')
    // `const x = require('x')` is an import, not a definition.
    if (value?.type === 'call_expression' && value.childForFieldName('function')?.text === 'require') continue
    if (value && (value.type === 'arrow_function' || value.type === 'function_expression')) {
      const head = textBefore(value, value.childForFieldName('body'), source).replace(/=>\s*$/, '')
      out.push(definition('function', declarator, nameNode.text, `const ${nameNode.text} = ${head}`, depth))
    } else {
      out.push(
        definition(
          'constant',
          declarator,
          nameNode.text,
          `const ${textBefore(declarator, value, source)}`,
          depth,
        ),
      )
    }
  }
}

function visitClassBody(body: Node, depth: number, source: string, out: Definition[]): void {
  for (const member of body.namedChildren) {
    switch (member.type) {
      case 'method_definition': {
        const name = member.childForFieldName('name')?.text
        if (name)
          out.push(
            definition(
              'method',
              member,
              name,
              textBefore(member, member.childForFieldName('body'), source),
              depth,
            ),
          )
        break
      }
      case 'method_signature':
      case 'abstract_method_signature': {
        const name = member.childForFieldName('name')?.text
        if (name) out.push(definition('method', member, name, member.text.replace(/;\s*$/, ''), depth))
        break
      }
      default:
        break
    }
  }
}
