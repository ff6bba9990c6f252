/**
 * The chat's `# note` line (Claude Code's `#`: saved to memory, never sent to the model) and
 * `/plugin install` from the chat (asks once with what the plugin adds, then its command works in
 * the same chat), through the real chat screen, controller and engine session.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { KEYS, renderChat, scriptedEngine, tempDir } from './harness.js'

const text = (value: string) => ({ blocks: [{ type: 'text' as const, text: value }] })

function put(root: string, path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), content)
}

describe('# notes and /plugin in the chat', () => {
  it('a # line asks where the note goes and saves it to the project AGENTS.md instead of sending it', async () => {
    const setup = await scriptedEngine([text('Hi.')])
    const chat = await renderChat(setup)
    await chat.type('# Always use tabs.', KEYS.enter)
    await chat.waitFor(
      (frame) => frame.includes('Where should this note be saved?') && frame.includes('3. User'),
      'the memory question',
    )
    await chat.type('1')
    await chat.waitFor((frame) => frame.includes('Noted in'), 'the saved note')
    expect(readFileSync(join(setup.project, 'AGENTS.md'), 'utf8')).toBe('- Always use tabs.\n')
    expect(setup.client.requests).toHaveLength(0)
    await chat.type('hello', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('Hi.'), 'the answer')
    expect(JSON.stringify(setup.client.requests[0]!.system)).toContain('Always use tabs.')
  })

  it('a # note goes to the CLAUDE.md a project already uses, not a new AGENTS.md beside it', async () => {
    const setup = await scriptedEngine([text('Hi.')])
    writeFileSync(join(setup.project, 'CLAUDE.md'), '# Project\n\n- Run npm test.\n')
    const chat = await renderChat(setup)
    await chat.type('# Always use tabs.', KEYS.enter)
    const asked = await chat.waitFor(
      (frame) => frame.includes('Where should this note be saved?') && frame.includes('3. User'),
      'the memory question',
    )
    expect(asked).toContain(join(setup.project, 'CLAUDE.md'))
    expect(asked).not.toContain('type your own answer')
    await chat.type('1')
    await chat.waitFor((frame) => frame.includes('Noted in'), 'the saved note')
    expect(readFileSync(join(setup.project, 'CLAUDE.md'), 'utf8')).toBe(
      '# Project\n\n- Run npm test.\n- Always use tabs.\n',
    )
    expect(existsSync(join(setup.project, 'AGENTS.md'))).toBe(false)
  })

  it('/plugin marketplace add and /plugin install ask once, then the plugin command runs in the same chat', async () => {
    const market = tempDir('ze-tui-market-')
    put(
      market,
      '.claude-plugin/marketplace.json',
      JSON.stringify({ name: 'acme', plugins: [{ name: 'tidy', source: './tidy' }] }),
    )
    put(market, 'tidy/.claude-plugin/plugin.json', JSON.stringify({ name: 'tidy', version: '0.2.0' }))
    put(market, 'tidy/commands/sweep.md', '---\ndescription: Sweep a file\n---\nSweep $ARGUMENTS clean.\n')
    const setup = await scriptedEngine([text('Swept.')])
    const chat = await renderChat(setup)
    await chat.type(`/plugin marketplace add ${market}`, KEYS.enter)
    await chat.waitFor((frame) => frame.includes('Added marketplace'), 'the marketplace')
    await chat.type('/plugin install tidy@acme', KEYS.enter)
    const consent = await chat.waitFor(
      (frame) => frame.includes('Install tidy@acme?') && frame.includes('commands: /tidy:sweep'),
      'the consent question',
    )
    // A yes/no consent: no typed answer is offered, and typed text answers nothing.
    expect(consent).not.toContain('type your own answer')
    await chat.type('maybe later')
    expect(chat.frame()).not.toContain('maybe later')
    await chat.type('1')
    await chat.waitFor((frame) => frame.includes('Installed tidy@acme'), 'the install')
    // The plugin's command is offered by `/` completion in the same chat, with its description.
    await chat.type('/tidy')
    await chat.waitFor(
      (frame) => frame.includes('/tidy:sweep') && frame.includes('Sweep a file'),
      'the plugin command in completion',
    )
    await chat.type(...Array<string>(5).fill(KEYS.backspace))
    await chat.type('/tidy:sweep math.js', KEYS.enter)
    await chat.waitFor((frame) => frame.includes('Swept.'), 'the plugin command turn')
    expect(JSON.stringify(setup.client.requests[0]!.messages[0]!.content)).toContain('Sweep math.js clean.')
  })
})
