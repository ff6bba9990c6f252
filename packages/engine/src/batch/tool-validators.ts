import { createHash } from 'node:crypto'
import type { JsonSchema } from '@z-engine/protocol'
import { builtinTools, type Ports } from '@z-engine/tools'
import type { Options, ValidateFunction } from 'ajv'
import { PRECOMPILED } from './precompiled-tool-validators.js'

/** The ajv options of tool-input validation, at run time and when precompiling (must match). */
export const TOOL_AJV_OPTIONS: Options = { allErrors: false, strict: false, coerceTypes: false }

/** Precompiled validators keyed by {@link schemaFingerprint}. */
export type PrecompiledValidators = Readonly<Record<string, ValidateFunction>>

/** A schema's identity for precompiled lookup: sha1 of its JSON text. */
export function schemaFingerprint(schema: JsonSchema): string {
  return createHash('sha1').update(JSON.stringify(schema)).digest('hex')
}

/**
 * Every built-in tool's input schema, with each port present so no tool is left out. A tool whose
 * schema depends on the session (the Agent tool's subagent types) gets its empty-catalog form; a
 * schema that differs at run time simply has no precompiled validator and is compiled on first use.
 */
export function builtinToolSchemas(): { name: string; schema: JsonSchema }[] {
  const present = {} as never
  const ports: Ports = {
    agents: { catalog: () => [] } as never,
    interaction: present,
    jobs: present,
    skills: present,
    checks: present,
    lsp: present,
    mcp: present,
  }
  const webSearch = present
  return builtinTools({ ports, webSearch }).map((tool) => ({ name: tool.name, schema: tool.inputSchema }))
}

let loaded: PrecompiledValidators | undefined | null = null

/**
 * The validators the build embedded (see `precompiled-tool-validators.ts`), or undefined (running
 * from sources).
 */
export function precompiledToolValidators(): PrecompiledValidators | undefined {
  if (loaded === null) loaded = PRECOMPILED?.tools?.()
  return loaded
}
