import { splitShellWords } from './arguments.js'
import type { McpPromptCommand } from './catalog.js'

/** The arguments for an MCP prompt, or a notice to show instead of starting a turn. */
export type McpPromptArguments =
  | { ok: true; arguments: Record<string, string> }
  | { ok: false; notice: string }

/**
 * Maps `/mcp__server__prompt` arguments onto the prompt's declared arguments (spec 000 "Commands"):
 * `key=value` words for a declared name by name, every other word positionally in declaration order.
 * A missing required argument or a surplus word gives a notice with the usage.
 */
export function mapMcpPromptArguments(command: McpPromptCommand, args: string): McpPromptArguments {
  const declared = command.arguments
  const names = new Set(declared.map((argument) => argument.name))
  const values: Record<string, string> = {}
  const positional: string[] = []
  for (const word of splitShellWords(args.trim())) {
    const equals = word.indexOf('=')
    const key = equals > 0 ? word.slice(0, equals) : undefined
    if (key !== undefined && names.has(key)) values[key] = word.slice(equals + 1)
    else positional.push(word)
  }
  for (const argument of declared) {
    if (positional.length === 0) break
    if (values[argument.name] === undefined) values[argument.name] = positional.shift()!
  }
  const usage = `Usage: /mcp__${command.server}__${command.prompt} ${declared
    .map((argument) => (argument.required ? `<${argument.name}>` : `[${argument.name}]`))
    .join(' ')}`.trimEnd()
  if (positional.length > 0) {
    return {
      ok: false,
      notice: `Too many arguments: ${positional.map((word) => JSON.stringify(word)).join(', ')}. ${usage}`,
    }
  }
  const missing = declared.filter((argument) => argument.required && values[argument.name] === undefined)
  if (missing.length > 0) {
    return {
      ok: false,
      notice: `Missing required argument${missing.length > 1 ? 's' : ''} ${missing.map((argument) => argument.name).join(', ')}. ${usage}`,
    }
  }
  return { ok: true, arguments: values }
}
