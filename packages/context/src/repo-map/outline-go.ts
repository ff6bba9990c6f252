import type { Node } from 'web-tree-sitter'
import { definition, textBefore } from './signature.js'
import type { Definition } from './types.js'

/** Outlines Go: functions, methods (with receivers), types (interface methods listed) and constants. */
export function outlineGo(root: Node, source: string): Definition[] {
  const out: Definition[] = []
  for (const node of root.namedChildren) {
    switch (node.type) {
      case 'function_declaration':
      case 'method_declaration': {
        const name = node.childForFieldName('name')?.text
        const kind = node.type === 'method_declaration' ? 'method' : 'function'
        if (name)
          out.push(definition(kind, node, name, textBefore(node, node.childForFieldName('body'), source), 0))
        break
      }
      case 'type_declaration':
        for (const spec of node.namedChildren) visitTypeSpec(spec, out)
        break
      case 'const_declaration':
        for (const spec of node.namedChildren) {
          if (spec.type !== 'const_spec') continue
          const name = spec.childForFieldName('name')?.text
          if (name)
            out.push(
              definition(
                'constant',
                spec,
                name,
                `const ${textBefore(spec, spec.childForFieldName('value'), source)}`,
                0,
              ),
            )
        }
        break
      default:
        break
    }
  }
  for (const definition of out) definition.exported = /^[A-Z]/.test(definition.name)
  return out
}

function visitTypeSpec(spec: Node, out: Definition[]): void {
  if (spec.type !== 'type_spec' && spec.type !== 'type_alias') return
  const name = spec.childForFieldName('name')?.text
  if (!name) return
  const type = spec.childForFieldName('type')
  if (spec.type === 'type_spec' && type?.type === 'struct_type') {
    out.push(definition('class', spec, name, `type ${name} struct`, 0))
    return
  }
  if (spec.type === 'type_spec' && type?.type === 'interface_type') {
    out.push(definition('interface', spec, name, `type ${name} interface`, 0))
    for (const element of type.namedChildren) {
      if (element.type !== 'method_elem') continue
      const method = element.childForFieldName('name')?.text
      if (method) out.push(definition('method', element, method, element.text, 1))
    }
    return
  }
  out.push(definition('type', spec, name, `type ${spec.text}`, 0))
}
