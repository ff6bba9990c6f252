import { describe, expect, it } from 'vitest'
import { PROMPT_TITLE_MAX, titleFromPrompt } from './title.js'

describe('titleFromPrompt', () => {
  it('takes the first non-empty line, collapsed, and cuts long ones at a word', () => {
    expect(titleFromPrompt('\n  fix   the failing\ttest \nmore')).toBe('fix the failing test')
    expect(titleFromPrompt('   \n ')).toBeUndefined()
    const long = titleFromPrompt(`${'word '.repeat(30)}end`) ?? ''
    expect([...long].length).toBeLessThanOrEqual(PROMPT_TITLE_MAX)
    expect(long.endsWith('word…')).toBe(true)
  })
})
