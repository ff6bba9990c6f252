import { describe, expect, it } from 'vitest'
import { COMMAND_TYPES, CommandSchemas, parseCommand } from '../src/index.js'
import { COMMANDS } from './examples.js'

describe('commands', () => {
  it('has a schema whose type tag matches its key for every command type', () => {
    for (const type of COMMAND_TYPES) {
      expect(CommandSchemas[type].properties.type).toMatchObject({ const: type })
    }
    expect(Object.keys(COMMANDS).sort()).toEqual([...COMMAND_TYPES].sort())
  })

  it.each(COMMAND_TYPES)('%s: a valid example validates and round-trips through JSON', (type) => {
    const wire = JSON.parse(JSON.stringify(COMMANDS[type])) as unknown
    const result = parseCommand(wire)
    expect(result).toEqual({ ok: true, command: COMMANDS[type] })
  })

  it.each([
    ['not an object', 'submit', '', 'must be object (got "submit")'],
    ['a missing field', { type: 'submit' }, 'text', 'is required but missing'],
    ['a field of the wrong type', { type: 'steer', text: 7 }, 'text', 'must be string (got number 7)'],
    ['an empty id', { type: 'killJob', jobId: '' }, 'jobId', 'must not be empty'],
    [
      'a misspelt field',
      { type: 'compact', fokus: 'x' },
      'fokus',
      'is not a known command field; check the spelling',
    ],
    [
      'a bad rewind scope',
      { type: 'rewind', messageId: 'm1', scope: 'files' },
      'scope',
      'must be one of: code, conversation, both (got "files")',
    ],
    [
      'a nested missing field',
      { type: 'resolveApproval', approvalId: 'a', decision: { type: 'allowProject' } },
      'decision.rule',
      'is required but missing',
    ],
    [
      'a nested bad tag',
      { type: 'resolvePlan', planId: 'p', decision: { type: 'maybe' } },
      'decision.type',
      'unknown type "maybe"; expected one of: approve, reject',
    ],
    [
      'an attachment with a bad media type',
      {
        type: 'submit',
        text: 'x',
        attachments: [{ type: 'image', source: { type: 'base64', mediaType: 'image/bmp', data: '' } }],
      },
      'attachments[0].source.mediaType',
      'must be one of: image/png, image/jpeg, image/gif, image/webp (got "image/bmp")',
    ],
    [
      'an answer that is not an array',
      { type: 'answerQuestion', questionId: 'q', response: { type: 'answered', answers: {} } },
      'response.answers',
      'must be array (got an object)',
    ],
  ])('rejects %s with the failing path', (_name, input, path, message) => {
    expect(parseCommand(input)).toEqual({ ok: false, error: { path, message } })
  })

  it.each([
    ['no type', { text: 'x' }, 'is required but missing; expected one of: submit, '],
    [
      'a type that is not a string',
      { type: 3 },
      'must be a string (got number 3); expected one of: submit, ',
    ],
  ])('rejects %s at `type`, listing the known types', (_name, input, start) => {
    const result = parseCommand(input)
    expect(result).toMatchObject({ ok: false, error: { path: 'type' } })
    if (!result.ok) expect(result.error.message.startsWith(start)).toBe(true)
  })

  it('names every known type when the type is unknown', () => {
    const result = parseCommand({ type: 'sumbit', text: 'x' })
    expect(result.ok).toBe(false)
    if (result.ok) return
    expect(result.error.path).toBe('type')
    expect(result.error.message).toMatch(/^unknown command type "sumbit"; expected one of: submit, steer, /)
    for (const type of COMMAND_TYPES) expect(result.error.message).toContain(type)
  })

  it('normalizes bypassPermissions to bypass without mutating the input', () => {
    const input = { type: 'setMode', mode: 'bypassPermissions' }
    expect(parseCommand(input)).toEqual({ ok: true, command: { type: 'setMode', mode: 'bypass' } })
    expect(input.mode).toBe('bypassPermissions')
    expect(
      parseCommand({
        type: 'resolvePlan',
        planId: 'p',
        decision: { type: 'approve', mode: 'bypassPermissions' },
      }),
    ).toEqual({
      ok: true,
      command: { type: 'resolvePlan', planId: 'p', decision: { type: 'approve', mode: 'bypass' } },
    })
  })

  it('does not throw on hostile input', () => {
    for (const input of [
      undefined,
      null,
      0,
      [],
      [{ type: 'cancel' }],
      { type: '__proto__' },
      { type: 'constructor' },
    ]) {
      const result = parseCommand(input)
      expect(result.ok).toBe(false)
    }
  })
})
