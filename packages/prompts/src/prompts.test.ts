import { describe, expect, it } from 'vitest'
import {
  BASE_PROMPT,
  BUILTIN_AGENTS,
  BUILTIN_COMMANDS,
  COMPACT_FOCUS_TEMPLATE,
  COMPACT_PROMPT,
  compactPrompt,
  parseFrontmatter,
  REMINDER_TEMPLATES,
  type ReminderName,
  type ReminderVariables,
  renderReminder,
  renderTemplate,
  templateVariables,
} from './index.js'

// One sample per reminder; the type makes a missing reminder or variable a compile error.
const SAMPLES: { [Name in ReminderName]: ReminderVariables[Name] } = {
  planMode: {},
  planModeExited: { mode: 'acceptEdits' },
  modeChanged: { mode: 'plan' },
  todoNudge: { todos: '- [ ] write tests' },
  filesChanged: { files: '- src/a.ts' },
  jobFinished: { jobId: 'job-1', description: 'npm test', status: 'exited with code 0' },
  nestedInstructions: { path: 'src/AGENTS.md', content: 'Use tabs.' },
  steering: { message: 'also update the docs' },
  agentMention: { agentType: 'explore' },
  repoMap: { map: '<repository-map>\nsrc/a.ts:\n  export function a(): void\n</repository-map>' },
  mcpDeferredTools: { tools: '- mcp__db__query: Runs a query.' },
  checksFailed: { failures: '- test (npm test): exit code 1', remaining: '2' },
  emptyAnswer: {},
  answerCutOff: { limit: '8192' },
  repeatedFailure: { tool: 'Edit', count: '2', error: 'old_string not found' },
  todosPending: { todos: '- [pending] write tests' },
  promisedWork: { sentence: 'I will now fix the bug.' },
  checkFailing: { failure: 'test (npm test) failed: exit code 1' },
}

describe('base prompt', () => {
  it('stays small (at most ~1,500 tokens at four characters a token)', () => {
    expect(Math.ceil(BASE_PROMPT.length / 4)).toBeLessThanOrEqual(1500)
  })

  it('covers reading before editing, verifying and secrets', () => {
    expect(BASE_PROMPT).toMatch(/Read the files you will touch/)
    expect(BASE_PROMPT).toMatch(/Verify before claiming/)
    expect(BASE_PROMPT).toMatch(/secrets/)
    expect(BASE_PROMPT).not.toMatch(/\{\{/)
  })
})

describe('reminder templates', () => {
  it.each(Object.keys(REMINDER_TEMPLATES) as ReminderName[])(
    '%s uses exactly its declared variables',
    (name) => {
      const declared = Object.keys(SAMPLES[name]).sort()
      expect(templateVariables(REMINDER_TEMPLATES[name]).sort()).toEqual(declared)
      const rendered = renderReminder(name, SAMPLES[name] as never)
      expect(rendered.startsWith('<system-reminder>\n')).toBe(true)
      expect(rendered).not.toMatch(/\{\{/)
    },
  )

  it('renders values once, never expanding placeholders inside them', () => {
    expect(renderTemplate('a {{x}} b', { x: '{{x}}' })).toBe('a {{x}} b')
  })

  it('throws on a missing variable (a programming error)', () => {
    expect(() => renderTemplate('{{missing}}', {})).toThrow(/missing/)
  })
})

describe('compaction prompt', () => {
  it('appends the focus only when given', () => {
    expect(compactPrompt()).toBe(COMPACT_PROMPT)
    expect(compactPrompt('  ')).toBe(COMPACT_PROMPT)
    expect(compactPrompt('the parser')).toContain('focus on: the parser')
    expect(templateVariables(COMPACT_FOCUS_TEMPLATE)).toEqual(['focus'])
    expect(templateVariables(COMPACT_PROMPT)).toEqual([])
  })
})

describe('built-in agents', () => {
  it('ships general, explore, plan, review and verify', () => {
    expect(BUILTIN_AGENTS.map((agent) => agent.name)).toEqual([
      'general',
      'explore',
      'plan',
      'review',
      'verify',
    ])
  })

  it.each(BUILTIN_AGENTS.map((agent) => [agent.name, agent] as const))(
    '%s parses with name, description and a body',
    (name, agent) => {
      const parsed = parseFrontmatter(agent.markdown)
      if (!parsed.ok) throw new Error(parsed.error)
      expect(parsed.data.name).toBe(name)
      expect(typeof parsed.data.description).toBe('string')
      expect(parsed.body.trim().length).toBeGreaterThan(100)
      expect(parsed.body).not.toMatch(/\{\{/)
    },
  )

  it('keeps explore and plan read-only', () => {
    for (const name of ['explore', 'plan']) {
      const parsed = parseFrontmatter(BUILTIN_AGENTS.find((agent) => agent.name === name)!.markdown)
      expect(parsed.ok && parsed.data.permissionMode).toBe('plan')
    }
  })
})

describe('built-in prompt commands', () => {
  it.each(BUILTIN_COMMANDS.map((command) => [command.name, command] as const))(
    '%s parses with a description',
    (_name, command) => {
      const parsed = parseFrontmatter(command.markdown)
      if (!parsed.ok) throw new Error(parsed.error)
      expect(typeof parsed.data.description).toBe('string')
      expect(parsed.body).toContain('$ARGUMENTS')
    },
  )
})

describe('parseFrontmatter', () => {
  it('returns the whole text as body when there is no frontmatter', () => {
    expect(parseFrontmatter('hello\n')).toEqual({
      ok: true,
      data: {},
      body: 'hello\n',
      hasFrontmatter: false,
    })
  })

  it('reports broken YAML with the file line and the body, never throwing', () => {
    const parsed = parseFrontmatter('---\nname: a\nstray line\n---\nbody')
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) {
      expect(parsed.error).toMatch(/Invalid YAML/)
      expect(parsed.line).toBeGreaterThanOrEqual(3)
      expect(parsed.body).toBe('body')
    }
  })

  it('quotes values YAML rejects and parses again, as Claude Code retries', () => {
    const parsed = parseFrontmatter(
      '---\nname: a\ndescription: Use when: x fails\nnote: [unclosed\ntools: [Read, Grep]\n---\nbody',
    )
    expect(parsed).toMatchObject({
      ok: true,
      data: { description: 'Use when: x fails', note: '[unclosed', tools: ['Read', 'Grep'] },
      repaired: ['description', 'note'],
    })
  })

  it('reports an unclosed header and a non-mapping header', () => {
    expect(parseFrontmatter('---\nname: a\n').ok).toBe(false)
    expect(parseFrontmatter('---\n- a\n- b\n---\n').ok).toBe(false)
  })

  it('accepts an empty header and CRLF line endings', () => {
    expect(parseFrontmatter('---\n---\nbody')).toEqual({
      ok: true,
      data: {},
      body: 'body',
      hasFrontmatter: true,
    })
    const crlf = parseFrontmatter('---\r\nname: x\r\n---\r\nbody')
    expect(crlf.ok && crlf.data.name).toBe('x')
  })
})
