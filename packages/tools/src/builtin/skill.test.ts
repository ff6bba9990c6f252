import { afterEach, describe, expect, it } from 'vitest'
import type { Ports } from '../ports.js'
import { RecordingSkills } from '../recording-ports.js'
import { makeTestCtx, resultText } from '../testing.js'
import { skillTool } from './skill.js'

const signal = new AbortController().signal
const contexts: Array<ReturnType<typeof makeTestCtx>> = []
const ctxWith = (ports: Ports) => {
  const ctx = makeTestCtx({ ports })
  contexts.push(ctx)
  return ctx
}
afterEach(() => {
  for (const ctx of contexts.splice(0)) ctx.cleanup()
})

const skills = () =>
  new RecordingSkills({
    'release-notes': {
      description: 'Write release notes',
      content: 'Read the changelog first.',
      baseDir: '/skills/release-notes',
    },
    pdf: { description: 'Work with PDFs', content: 'Use pdftotext.', baseDir: '/skills/pdf' },
  })

describe('Skill', () => {
  it('loads a skill with its arguments and names its folder', async () => {
    const port = skills()
    const result = await skillTool.call(
      { skill: 'release-notes', args: 'v2.1' },
      ctxWith({ skills: port }),
      signal,
    )
    expect(port.loads).toEqual([{ name: 'release-notes', args: 'v2.1' }])
    expect(resultText(result)).toBe(
      'Base directory for this skill: /skills/release-notes\n\nRead the changelog first.',
    )
  })

  it('accepts a leading slash, as a user would type it', async () => {
    const port = skills()
    await skillTool.call({ skill: '/pdf' }, ctxWith({ skills: port }), signal)
    expect(port.loads[0]!.name).toBe('pdf')
  })

  it('lists the available skills when the name is unknown', async () => {
    const result = await skillTool.call({ skill: 'deploy' }, ctxWith({ skills: skills() }), signal)
    expect(result.ok).toBe(false)
    expect(resultText(result)).toBe("No skill 'deploy'; available: release-notes, pdf.")
  })

  it('maps to loadSkill and is read-only', () => {
    const ctx = ctxWith({})
    expect(skillTool.action({ skill: 'pdf' }, ctx)).toEqual({ type: 'loadSkill', name: 'pdf' })
    expect(skillTool.isReadOnly({ skill: 'pdf' })).toBe(true)
    expect(skillTool.title({ skill: 'pdf' }, ctx)).toBe('Skill pdf')
  })
})
