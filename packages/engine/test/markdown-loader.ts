import { register } from 'node:module'

/**
 * Lets a plain `node --import tsx` process import the engine's sources: prompts are markdown files
 * imported as strings (vitest and tsup do the same with their text loaders). Call it before the first
 * dynamic `import()` of the engine.
 */
export function registerMarkdownLoader(): void {
  const hooks = `
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
export async function load(url, context, next) {
  if (!url.endsWith('.md')) return next(url, context)
  const text = readFileSync(fileURLToPath(url), 'utf8')
  return { format: 'module', source: 'export default ' + JSON.stringify(text), shortCircuit: true }
}`
  register(`data:text/javascript,${encodeURIComponent(hooks)}`)
}
