import type { Node } from 'web-tree-sitter'
import type { Definition, DefinitionKind } from './types.js'

const MAX_SIGNATURE = 160

/** Collapses whitespace and cuts a signature to a readable length. */
export function tidySignature(text: string): string {
  // Multi-line parameter lists read better on one line without their layout: `( a, b, )` → `(a, b)`.
  const collapsed = text
    .replace(/\s+/g, ' ')
    .replace(/([([<]) /g, '$1')
    .replace(/,? ([)\]>])/g, '$1')
    .trim()
  return collapsed.length <= MAX_SIGNATURE ? collapsed : `${collapsed.slice(0, MAX_SIGNATURE - 1)}…`
}

/** The node's text up to (not including) the given child, e.g. a declaration without its body. */
export function textBefore(node: Node, stop: Node | null, source: string): string {
  const end = stop ? stop.startIndex : node.endIndex
  return source.slice(node.startIndex, end)
}

/** Builds a definition from a node, its name and its signature text. */
export function definition(
  kind: DefinitionKind,
  node: Node,
  name: string,
  signature: string,
  depth: number,
): Definition {
  return {
    kind,
    name,
    signature: tidySignature(signature).replace(/\s*[{:=]\s*$/, ''),
    depth,
    line: node.startPosition.row,
    exported: true,
  }
}
