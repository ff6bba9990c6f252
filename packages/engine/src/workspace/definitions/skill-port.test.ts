import { describe, expect, it } from 'vitest'
import { createSkillPort } from './skill-port.js'
import type { SkillDefinition } from './types.js'

const skill: SkillDefinition = {
  name: 'pdf',
  description: 'Work with PDFs',
  source: { layer: 'project', path: '/p/.z-engine/skills/pdf/SKILL.md' },
  frontmatter: {},
  warnings: [],
  body: 'Extract text from $0 with pdftotext.',
  baseDir: '/p/.z-engine/skills/pdf',
  allowedTools: [],
  userInvocable: true,
}

describe('createSkillPort', () => {
  it('lists skills and loads one with its arguments and folder', async () => {
    const port = createSkillPort(() => [skill])
    expect(port.list()).toEqual([{ name: 'pdf', description: 'Work with PDFs' }])
    expect(await port.load('pdf', 'report.pdf')).toEqual({
      content: 'Extract text from report.pdf with pdftotext.',
      baseDir: '/p/.z-engine/skills/pdf',
    })
    expect(await port.load('missing')).toBeUndefined()
  })

  it('hides disable-model-invocation skills from the model, as Claude Code does', async () => {
    const port = createSkillPort(() => [{ ...skill, disableModelInvocation: true }])
    expect(port.list()).toEqual([])
    expect(await port.load('pdf')).toBeUndefined()
  })
})
