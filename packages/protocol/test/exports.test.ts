import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import * as protocol from '../src/index.js'

describe('public surface', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(protocol).sort()).toMatchInlineSnapshot(`
      [
        "AgentInfoSchema",
        "COMMAND_TYPES",
        "CheckRecordSchema",
        "CommandSchema",
        "CommandSchemas",
        "ContentBlockSchema",
        "DEFAULT_HOOK_TIMEOUT_SECS",
        "DEFAULT_SETTINGS",
        "EVENT_TYPES",
        "EngineEventSchema",
        "EventEnvelopeSchema",
        "EventSchemas",
        "HOOK_CONFIG_FILE_NAMES",
        "HOOK_EVENTS",
        "JobInfoSchema",
        "LOG_FORMAT_VERSION",
        "LOG_RECORD_TYPES",
        "LogRecordSchema",
        "LogRecordSchemas",
        "MessageSchema",
        "PERMISSION_MODES",
        "PERMISSION_MODE_ALIASES",
        "PERSISTED_EVENT_TYPES",
        "PROTOCOL_VERSION",
        "PermissionCheckRequestSchema",
        "REWIND_SCOPES",
        "SettingsSchema",
        "TOOLCHAIN_FILE_NAMES",
        "TOOL_CONFIG_FILE_NAMES",
        "TOOL_STATUSES",
        "TodoItemSchema",
        "ToolResultContentSchema",
        "ToolSpecSchema",
        "USER_PROMPT_HOOK_TIMEOUT_SECS",
        "ZERO_COST",
        "ZERO_USAGE",
        "addCost",
        "addUsage",
        "isPersistedEvent",
        "isPersistedType",
        "parseCommand",
        "parseEnvelope",
        "parseEvent",
        "parseLogRecord",
        "parsePermissionCheckRequest",
        "parsePermissionMode",
        "parseSettings",
        "suggestedRulesText",
        "todoMarkdown",
      ]
    `)
  })

  it('does not load ajv until something is validated', () => {
    const script = `
      import { createRequire } from 'node:module'
      const cache = () => Object.keys(createRequire(import.meta.url).cache).filter((key) => key.includes('/ajv/')).length
      const protocol = await import('@z-engine/protocol')
      const before = cache()
      protocol.parseCommand({ type: 'cancel' })
      console.log(JSON.stringify({ before, after: cache() }))
    `
    const output = execFileSync(
      process.execPath,
      ['--conditions=@z-engine/source', '--import', 'tsx', '--input-type=module', '-e', script],
      { cwd: new URL('..', import.meta.url), encoding: 'utf8' },
    )
    const counts = JSON.parse(output) as { before: number; after: number }
    expect(counts.before).toBe(0)
    expect(counts.after).toBeGreaterThan(0)
  })
})
