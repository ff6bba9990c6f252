import type { JsonSchema, ToolResultContent } from '@z-engine/protocol'
import { toolInputSchema, toolSchemaShape } from '../mcp/input-schema.js'
import { loadAjv } from '../util/load-ajv.js'

/**
 * The part of the Standard JSON Schema interface (standardschema.dev, v1.1) the engine uses: a
 * schema object that can describe its input as JSON Schema and validate a value. Zod ≥ 4.2,
 * ArkType and Valibot (through its JSON Schema adapter) implement it; the types are copied, as the
 * standard asks, so no library is required.
 */
export interface StandardJsonSchema<Output = unknown> {
  readonly '~standard': {
    readonly version: 1
    readonly vendor: string
    readonly jsonSchema?: {
      readonly input: (options: { readonly target: 'draft-07' | 'draft-2020-12' }) => Record<string, unknown>
    }
    readonly validate?: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined
  }
}

/** What a Standard Schema's `validate` returns. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | {
      readonly issues: ReadonlyArray<{
        readonly message: string
        readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined
      }>
    }

/** A tool's input schema: a JSON Schema object (`type: "object"`), or a Standard JSON Schema (e.g. a Zod object). */
export type ToolInputSchema = JsonSchema | StandardJsonSchema

/** The parsed input a tool's `execute` receives: the schema's output type, or a plain object for JSON Schema. */
export type ToolInputOf<S> = S extends StandardJsonSchema<infer Output> ? Output : Record<string, unknown>

/**
 * What a call would do, for the permission policy (the same terms built-in tools use). Relative
 * paths resolve against the agent's cwd and `~` against the home folder, so `Read(./.env)` deny
 * rules hold for the tool too.
 */
export type ToolActionDescription =
  | { type: 'read'; paths: string[] }
  | { type: 'write'; paths: string[] }
  | { type: 'execute'; command: string; cwd?: string }
  | { type: 'fetch'; url: string }

/** What a tool's `execute` is given besides its input. */
export interface ToolExecuteContext {
  /** Aborted when the turn is cancelled or interrupted. */
  signal: AbortSignal
  sessionId: string
  /** `main`, or the subagent making the call. */
  agentId: string
  toolUseId: string
  /** The agent's root (the project, or a worktree agent's worktree). */
  projectRoot: string
  /** The agent's shell cwd. */
  cwd: string
  /** Shows a progress line on the tool's card (throttled). */
  progress(message: string): void
}

/**
 * What `execute` returns: text for the model, or content blocks (text and images) with `isError`
 * for a failure the model should see as one. Throwing is an error result with the message.
 */
export type ToolExecuteResult =
  | string
  | {
      content: string | ToolResultContent[]
      isError?: boolean
      /** Data for the host's UI, never sent to the model. */
      details?: Record<string, unknown>
    }

/** How an embedder describes a tool to `defineTool`. */
export interface ToolSpec<S extends ToolInputSchema = ToolInputSchema> {
  /** Letters, digits, `_` and `-`, at most 64; no built-in or `mcp__` name. */
  name: string
  /** What the model reads to decide when and how to call the tool. */
  description: string
  inputSchema: S
  execute(input: ToolInputOf<S>, context: ToolExecuteContext): Promise<ToolExecuteResult> | ToolExecuteResult
  /** Changes nothing: allowed without asking in every mode, plan mode included (default false: it asks). */
  readOnly?: boolean
  /** May run alongside other concurrency-safe calls of a batch (default: `readOnly`). */
  concurrencySafe?: boolean
  /** Describes a call to the policy (files read or written, a command, a URL) instead of "changes state". */
  action?(input: ToolInputOf<S>): ToolActionDescription
  /** A short label for the call's card (default: the tool's name). */
  title?(input: ToolInputOf<S>): string
}

/** A tool defined in code, ready to pass as `tools` to `Engine.create`, `openSession` or `run`. */
export interface DefinedTool {
  readonly kind: 'definedTool'
  readonly name: string
  readonly description: string
  /** The input schema as JSON Schema (converted from a Standard JSON Schema when one was given). */
  readonly inputSchema: JsonSchema
  readonly readOnly: boolean
  readonly concurrencySafe: boolean
  /** Validates and parses input with the Standard Schema given, when it has `validate`. */
  readonly parse?: (value: unknown) => Promise<{ ok: true; value: unknown } | { ok: false; message: string }>
  readonly action?: (input: unknown) => ToolActionDescription
  readonly title?: (input: unknown) => string
  readonly execute: (input: unknown, context: ToolExecuteContext) => Promise<ToolExecuteResult>
}

/** Why `defineTool` refused a spec; the message says what to change. */
export class ToolDefinitionError extends Error {
  override readonly name = 'ToolDefinitionError'
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/

/**
 * Defines a tool in code. The input schema is JSON Schema, or any Standard JSON Schema (a Zod 4
 * object, say), converted once here. Throws `ToolDefinitionError` for a bad name or schema shape; a
 * schema that does not compile is refused when the engine or a session is given the tool.
 */
export function defineTool<S extends ToolInputSchema>(spec: ToolSpec<S>): DefinedTool {
  if (typeof spec.name !== 'string' || !NAME.test(spec.name))
    throw new ToolDefinitionError(
      `Tool name ${JSON.stringify(spec.name)} is not valid: use 1 to 64 letters, digits, '_' or '-'.`,
    )
  if (spec.name.startsWith('mcp__'))
    throw new ToolDefinitionError(
      `Tool name '${spec.name}' is not valid: 'mcp__' names belong to MCP servers.`,
    )
  if (typeof spec.description !== 'string' || spec.description.trim() === '')
    throw new ToolDefinitionError(
      `Tool '${spec.name}' needs a description: the model reads it to use the tool.`,
    )
  if (typeof spec.execute !== 'function')
    throw new ToolDefinitionError(`Tool '${spec.name}' needs an execute(input, context) function.`)
  const standard = standardOf(spec.inputSchema)
  const inputSchema = standard ? jsonSchemaOf(spec.name, standard) : plainSchema(spec.name, spec.inputSchema)
  const readOnly = spec.readOnly === true
  const validate = standard?.['~standard'].validate
  return Object.freeze({
    kind: 'definedTool' as const,
    name: spec.name,
    description: spec.description,
    inputSchema,
    readOnly,
    concurrencySafe: spec.concurrencySafe ?? readOnly,
    ...(validate ? { parse: (value: unknown) => parseWith(validate, value) } : {}),
    ...(spec.action ? { action: spec.action as (input: unknown) => ToolActionDescription } : {}),
    ...(spec.title ? { title: spec.title as (input: unknown) => string } : {}),
    execute: async (input: unknown, context: ToolExecuteContext) =>
      spec.execute(input as ToolInputOf<S>, context),
  })
}

function standardOf(schema: unknown): StandardJsonSchema | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined
  return '~standard' in schema ? (schema as StandardJsonSchema) : undefined
}

function jsonSchemaOf(name: string, schema: StandardJsonSchema): JsonSchema {
  const converter = schema['~standard'].jsonSchema
  if (!converter)
    throw new ToolDefinitionError(
      `Tool '${name}': its ${schema['~standard'].vendor} schema cannot describe itself as JSON Schema (Standard JSON Schema). Use Zod 4.2 or later, or pass a JSON Schema object.`,
    )
  let converted: Record<string, unknown>
  try {
    converted = converter.input({ target: 'draft-07' })
  } catch (error) {
    throw new ToolDefinitionError(
      `Tool '${name}': its schema could not be converted to JSON Schema (${error instanceof Error ? error.message : String(error)}).`,
    )
  }
  return plainSchema(name, converted)
}

function plainSchema(name: string, schema: unknown): JsonSchema {
  const checked = toolSchemaShape(schema)
  if (!checked.ok) throw schemaError(name, checked.message)
  return checked.schema
}

function schemaError(name: string, message: string): ToolDefinitionError {
  return new ToolDefinitionError(
    `Tool '${name}': ${message}. Pass a JSON Schema object with type "object", or a Standard Schema such as a Zod object.`,
  )
}

/**
 * Throws `ToolDefinitionError` for the first tool whose schema does not compile. Run where the tools
 * are given (`Engine.create`, `openSession`): compiling needs ajv, which is loaded then rather than
 * at `defineTool` (a sync call at a program's top level) so that nobody pays for it at import.
 */
export async function checkToolSchemas(tools: readonly DefinedTool[] | undefined): Promise<void> {
  if (tools === undefined || tools.length === 0) return
  await loadAjv()
  for (const tool of tools) {
    if (tool?.kind !== 'definedTool') continue
    const checked = toolInputSchema(tool.inputSchema)
    if (!checked.ok) throw schemaError(tool.name, checked.message)
  }
}

async function parseWith(
  validate: NonNullable<StandardJsonSchema['~standard']['validate']>,
  value: unknown,
): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
  const result = await validate(value)
  if (result.issues === undefined) return { ok: true, value: result.value }
  const messages = result.issues.map((issue) => {
    const path = (issue.path ?? [])
      .map((part) => String(typeof part === 'object' && part !== null ? part.key : part))
      .join('.')
    return path === '' ? issue.message : `${path}: ${issue.message}`
  })
  return { ok: false, message: messages.join('; ') }
}
