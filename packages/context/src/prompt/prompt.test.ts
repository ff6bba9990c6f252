import type { Message } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { TranscriptBuilder } from '../test-support/transcripts.js'
import { planBreakpoints } from './cache.js'
import { prefixBreaks } from './prefix.js'
import { appendReminders, wrapSystemReminder } from './reminders.js'
import { buildSystem, renderEnvironment } from './system.js'

describe('buildSystem', () => {
  it('orders sections stable-first and sends the per-request note last, outside the cache', () => {
    const sections = buildSystem({
      note: 'You are in worktree /tmp/wt',
      repoMap: 'MAP',
      outputStyle: 'STYLE',
      skills: 'SKILLS',
      instructions: 'INSTR',
      environment: 'ENV',
      base: 'BASE',
    })
    expect(sections.map((section) => section.kind)).toEqual([
      'base',
      'environment',
      'instructions',
      'skills',
      'outputStyle',
      'repoMap',
      'note',
    ])
    expect(sections.map((section) => section.cacheable)).toEqual([true, true, true, true, true, true, false])
  })

  it('drops absent and blank parts', () => {
    expect(
      buildSystem({ base: 'B', instructions: '  \n', repoMap: '' }).map((section) => section.kind),
    ).toEqual(['base'])
  })

  it('renders the environment without a clock time, so it stays stable all session', () => {
    const text = renderEnvironment({
      cwd: '/p',
      platform: 'linux',
      date: '2026-11-29',
      isGitRepository: true,
      gitBranch: 'main',
    })
    expect(text).toContain('Working directory: /p')
    expect(text).toContain('Git branch: main')
    expect(text).not.toMatch(/\d\d:\d\d/)
  })
})

describe('planBreakpoints', () => {
  it('marks the last cacheable section, the tools and the last two user messages', () => {
    const messages = new TranscriptBuilder().turn(2).user('next').messages
    const system = buildSystem({ base: 'B', environment: 'E', note: 'N' })
    const plan = planBreakpoints({ system, toolCount: 3, messages })
    expect(plan.systemIndex).toBe(1)
    expect(plan.tools).toBe(true)
    // the tool-result round of the previous turn counts as a user message
    const userIndices = messages.flatMap((message, index) => (message.role === 'user' ? [index] : []))
    expect(plan.messageIndices).toEqual(userIndices.slice(-2))
    expect(messages[plan.messageIndices[0]!]!.content[0]!.type).toBe('tool_result')
  })

  it('handles no cacheable section, no tools and a single message', () => {
    const messages: Message[] = [{ id: 'u', role: 'user', content: [{ type: 'text', text: 'hi' }] }]
    expect(planBreakpoints({ system: [{ cacheable: false }], toolCount: 0, messages })).toEqual({
      systemIndex: null,
      tools: false,
      messageIndices: [0],
    })
  })
})

describe('appendReminders', () => {
  it('adds <system-reminder> blocks to the last user message without touching the input', () => {
    const messages = new TranscriptBuilder().turn(1).user('again').messages
    const before = JSON.stringify(messages)
    const result = appendReminders(messages, [
      'todo nudge',
      '<system-reminder>\njob done\n</system-reminder>',
    ])
    expect(JSON.stringify(messages)).toBe(before)
    expect(result.slice(0, -1)).toEqual(messages.slice(0, -1))
    const last = result.at(-1)!
    expect(last.id).toBe(messages.at(-1)!.id)
    expect(last.content.slice(1)).toEqual([
      { type: 'text', text: '<system-reminder>\ntodo nudge\n</system-reminder>' },
      { type: 'text', text: '<system-reminder>\njob done\n</system-reminder>' },
    ])
  })

  it('uses the last user message even when an assistant message follows', () => {
    const messages = new TranscriptBuilder().turn(0).messages
    const result = appendReminders(messages, ['x'])
    expect(result[0]!.content).toHaveLength(2)
    expect(result[1]).toBe(messages[1])
    expect(wrapSystemReminder(wrapSystemReminder('x'))).toBe(wrapSystemReminder('x'))
  })
})

describe('prefixBreaks', () => {
  it('accepts requests that extend the previous one and names what broke otherwise', () => {
    const builder = new TranscriptBuilder().turn(1)
    const system = buildSystem({ base: 'B', repoMap: 'MAP', note: 'changes every request' })
    const tools = [{ name: 'Read', description: 'reads', inputSchema: {} }]
    const first = { system, tools, messages: builder.messages.slice() }
    builder.turn(1)
    const withReminder = appendReminders(builder.messages, ['nudge'])
    const second = {
      system: buildSystem({ base: 'B', repoMap: 'MAP', note: 'different note' }),
      tools,
      messages: withReminder,
    }
    expect(prefixBreaks(first, second)).toEqual([])
    // a reminder that was not kept in the working set breaks the next request's prefix
    builder.turn(1)
    const reminded = withReminder.findLastIndex((message) => message.role === 'user')
    expect(prefixBreaks(second, { system, tools, messages: builder.messages })).toEqual([
      `message ${reminded} (${withReminder[reminded]!.id}) changed`,
    ])
    expect(prefixBreaks(first, { system: buildSystem({ base: 'B2' }), tools: [], messages: [] })).toEqual([
      'the cacheable system sections changed',
      'the tool list changed',
      `the messages shrank from ${first.messages.length} to 0`,
    ])
    expect(prefixBreaks(first, { system, tools, messages: [] }, true)).toEqual([])
  })
})
