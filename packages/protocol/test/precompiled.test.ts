import { mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { ErrorObject, ValidateFunction } from 'ajv'
import { beforeAll, describe, expect, it } from 'vitest'
import { embedStandalone } from '../../../scripts/build/embed-standalone.mjs'
import { generateValidators } from '../scripts/generate-validators.js'
import {
  DEFAULT_SETTINGS,
  parseCommand,
  parseEnvelope,
  parseEvent,
  parseLogRecord,
  parseSettings,
} from '../src/index.js'
import { firstError, formatError } from '../src/validate/format-error.js'
import { COMMANDS, EVENTS, LOG_RECORDS } from './examples.js'

type Module = Record<string, ValidateFunction>
const modules: Record<string, Module> = {}
const sources: Record<string, string> = {}

/** A group's validators, a split group's (`<group>.<tag>` files) merged. */
function groupOf(byFile: Record<string, Module>, group: string): Module {
  const parts = Object.entries(byFile).filter(([file]) => file === group || file.startsWith(`${group}.`))
  return Object.assign({}, ...parts.map(([, module]) => module)) as Module
}

/** What the precompiled validator `name` of `file` says about `value`, formatted like the parsers do. */
function precompiledIssue(file: string, name: string, value: unknown, noun: string) {
  const validate = groupOf(modules, file)[name]
  if (validate === undefined) throw new Error(`no precompiled validator ${name} in ${file}`)
  if (validate(value)) return undefined
  const error = firstError(validate.errors as ErrorObject[])
  return error === undefined ? undefined : formatError(error, noun)
}

describe('precompiled validators (the built package)', () => {
  beforeAll(() => {
    const directory = mkdtempSync(join(tmpdir(), 'z-protocol-validators-'))
    const require = createRequire(join(directory, 'index.js'))
    for (const [name, source] of Object.entries(generateValidators())) {
      writeFileSync(join(directory, name), source)
      sources[name.replace(/^validators-|\.cjs$/g, '')] = source
      modules[name.replace(/^validators-|\.cjs$/g, '')] = require(join(directory, name)) as Module
    }
  })

  it('splits the commands one branch per file, each holding only its own validator (issue 17)', () => {
    const files = Object.keys(sources).filter((name) => name.startsWith('commands.'))
    expect(files.sort()).toEqual(
      Object.keys(COMMANDS)
        .map((t) => `commands.${t}`)
        .sort(),
    )
    expect(sources.commands).toBeUndefined()
    for (const [type] of Object.entries(COMMANDS))
      expect(Object.keys(modules[`commands.${type}`] ?? {})).toEqual([`command_${type}`])
    // The first command of a session unpacks a fraction of what every command's code would be.
    const all = files.reduce((total, name) => total + (sources[name]?.length ?? 0), 0)
    expect(sources['commands.submit']?.length ?? 0).toBeLessThan(all / 5)
  })

  it('has one validator per command, event and log record type, the envelope and settings', () => {
    expect(Object.keys(groupOf(modules, 'commands')).sort()).toEqual(
      Object.keys(COMMANDS)
        .map((t) => `command_${t}`)
        .sort(),
    )
    expect(Object.keys(modules.events ?? {}).sort()).toEqual(
      [...Object.keys(EVENTS).map((t) => `event_${t}`), 'envelope'].sort(),
    )
    expect(Object.keys(modules.log ?? {}).sort()).toEqual(
      Object.keys(LOG_RECORDS)
        .map((t) => `record_${t}`)
        .sort(),
    )
    expect(Object.keys(modules.settings ?? {})).toEqual(['settings'])
  })

  it('accepts every example', () => {
    for (const [type, command] of Object.entries(COMMANDS))
      expect(precompiledIssue('commands', `command_${type}`, command, 'command')).toBeUndefined()
    for (const [type, event] of Object.entries(EVENTS))
      expect(precompiledIssue('events', `event_${type}`, event, 'event')).toBeUndefined()
    for (const [type, record] of Object.entries(LOG_RECORDS))
      expect(precompiledIssue('log', `record_${type}`, record, 'log record')).toBeUndefined()
    expect(precompiledIssue('settings', 'settings', DEFAULT_SETTINGS, 'settings')).toBeUndefined()
  })

  it('reports the same path and message as the runtime-compiled validators', () => {
    const commands = [
      { type: 'resolveApproval', approvalId: 'a', decision: { type: 'allowProject' } },
      { type: 'resolvePlan', planId: 'p', decision: { type: 'maybe' } },
      { type: 'rewind', messageId: 'm', scope: 'files' },
      { type: 'compact', fokus: 'x' },
      {
        type: 'submit',
        text: 'x',
        attachments: [{ type: 'image', source: { type: 'base64', mediaType: 'image/bmp', data: '' } }],
      },
    ]
    for (const command of commands) {
      const parsed = parseCommand(command)
      expect(parsed.ok).toBe(false)
      if (!parsed.ok)
        expect(precompiledIssue('commands', `command_${command.type}`, command, 'command')).toEqual(
          parsed.error,
        )
    }
    const event = { type: 'toolFinished', toolUseId: 't', toolName: 'Read', status: 'skipped', durationMs: 1 }
    const parsedEvent = parseEvent(event)
    if (!parsedEvent.ok)
      expect(precompiledIssue('events', 'event_toolFinished', event, 'event')).toEqual(parsedEvent.error)
    const envelope = { seq: 0, sessionId: 's', at: 'x', event: { type: 'textEnd' } }
    const parsedEnvelope = parseEnvelope(envelope)
    if (!parsedEnvelope.ok)
      expect(precompiledIssue('events', 'envelope', envelope, 'envelope')).toEqual(parsedEnvelope.error)
    const record = { ...LOG_RECORDS.messageRecorded, message: { id: 'm', role: 'system', content: [] } }
    const parsedRecord = parseLogRecord(record)
    if (!parsedRecord.ok)
      expect(precompiledIssue('log', 'record_messageRecorded', record, 'log record')).toEqual(
        parsedRecord.error,
      )
    const settings = { hooks: { PreToolUse: [{ command: 'x', timeout_secs: 0 }] } }
    const parsedSettings = parseSettings(settings)
    if (!parsedSettings.ok)
      expect(precompiledIssue('settings', 'settings', settings, 'settings')).toEqual(parsedSettings.error)
    expect([parsedEvent.ok, parsedEnvelope.ok, parsedRecord.ok, parsedSettings.ok]).toEqual([
      false,
      false,
      false,
      false,
    ])
  })
})

describe('the embedded module the build bundles (embedStandalone)', () => {
  it('carries each group deflated and builds the same validators on first call', async () => {
    const embedded = embedStandalone(sources, 'test')
    const code = Object.values(sources).join('').length
    // Packed, importing the module parses none of the validators' code (issue 17, peak RSS).
    expect(embedded.length).toBeLessThan(code / 5)
    expect(embedded).not.toContain('function validate')
    const directory = mkdtempSync(join(tmpdir(), 'z-protocol-embedded-'))
    writeFileSync(join(directory, 'validators.mjs'), embedded)
    const { PRECOMPILED } = (await import(pathToFileURL(join(directory, 'validators.mjs')).href)) as {
      PRECOMPILED: Record<string, () => Module>
    }
    expect(Object.keys(PRECOMPILED).sort()).toEqual(Object.keys(sources).sort())
    for (const [group, load] of Object.entries(PRECOMPILED)) {
      const validators = load()
      expect(Object.keys(validators).sort()).toEqual(Object.keys(modules[group] ?? {}).sort())
    }
    const commands = groupOf(
      Object.fromEntries(
        Object.entries(PRECOMPILED)
          .filter(([group]) => group.startsWith('commands.'))
          .map(([group, load]) => [group, load()]),
      ),
      'commands',
    )
    for (const [type, command] of Object.entries(COMMANDS))
      expect(commands[`command_${type}`]?.(command)).toBe(true)
    const submit = commands.command_submit
    expect(submit?.({ type: 'submit' })).toBe(false)
    expect(submit?.errors?.[0]?.params).toEqual({ missingProperty: 'text' })
  })

  it('refuses generated code that loads a module it cannot embed', () => {
    expect(() => embedStandalone({ group: 'const x = require("fs")' }, 'test')).toThrow(/requires fs/)
  })
})
