import type { Node } from 'web-tree-sitter'
import { definition, textBefore } from './signature.js'
import type { Definition } from './types.js'

// `#[test]`, `#[tokio::test]`, `#[cfg(test)]`, `#[cfg(all(test, …))]`, but not `#[cfg(not(test))]`.
const TEST_ATTRIBUTE = /^#\[\s*(?:(?:\w+::)*test\s*\]|cfg\s*\((?![^)]*not\s*\()[^\]]*\btest\b)/

/**
 * Outlines Rust: functions, structs, enums, unions, traits and impls with their methods, constants,
 * statics, type aliases, inline modules and macro_rules. Test-only items (`#[test]`, `#[cfg(test)]`
 * and everything inside such a module) are left out.
 */
export function outlineRust(root: Node, source: string): Definition[] {
  const out: Definition[] = []
  visitItems(root.namedChildren, 0, source, out)
  return out
}

/** What holds the items: functions in an impl or trait are methods, in a module functions. */
type Container = 'module' | 'impl'

function visitItems(
  nodes: readonly Node[],
  depth: number,
  source: string,
  out: Definition[],
  container: Container = 'module',
): void {
  let testOnly = false
  for (const node of nodes) {
    if (node.type === 'attribute_item') {
      if (TEST_ATTRIBUTE.test(node.text)) testOnly = true
      continue
    }
    if (node.type === 'line_comment' || node.type === 'block_comment') continue
    if (!testOnly) {
      const first = out.length
      visitItem(node, depth, source, out, container)
      const exported = node.namedChildren.some((child) => child.type === 'visibility_modifier')
      for (let i = first; i < out.length; i++) out[i]!.exported = exported
    }
    testOnly = false
  }
}

function visitItem(node: Node, depth: number, source: string, out: Definition[], container: Container): void {
  const functionKind = container === 'impl' ? 'method' : 'function'
  const name = node.childForFieldName('name')?.text
  const body = node.childForFieldName('body')
  switch (node.type) {
    case 'function_item':
      if (name) out.push(definition(functionKind, node, name, textBefore(node, body, source), depth))
      return
    case 'function_signature_item':
      if (name) out.push(definition(functionKind, node, name, node.text.replace(/;\s*$/, ''), depth))
      return
    case 'struct_item':
    case 'union_item':
      if (name)
        out.push(definition('class', node, name, textBefore(node, body, source).replace(/;\s*$/, ''), depth))
      return
    case 'enum_item':
      if (name) out.push(definition('enum', node, name, textBefore(node, body, source), depth))
      return
    case 'type_item':
      if (name) out.push(definition('type', node, name, node.text.replace(/;\s*$/, ''), depth))
      return
    case 'const_item':
    case 'static_item':
      if (name)
        out.push(
          definition(
            'constant',
            node,
            name,
            textBefore(node, node.childForFieldName('value'), source),
            depth,
          ),
        )
      return
    case 'macro_definition':
      if (name) out.push(definition('macro', node, name, `macro_rules! ${name}`, depth))
      return
    case 'trait_item':
      if (!name) return
      out.push(definition('trait', node, name, textBefore(node, body, source), depth))
      if (body) visitItems(body.namedChildren, depth + 1, source, out, 'impl')
      return
    case 'impl_item': {
      const type = node.childForFieldName('type')?.text
      if (!type) return
      out.push(definition('impl', node, type, textBefore(node, body, source), depth))
      if (body) visitItems(body.namedChildren, depth + 1, source, out, 'impl')
      return
    }
    case 'mod_item':
      if (!name || !body) return // `mod foo;` points at another file, outlined on its own
      out.push(definition('module', node, name, textBefore(node, body, source), depth))
      if (depth < 3) visitItems(body.namedChildren, depth + 1, source, out)
      return
    default:
      return
  }
}
