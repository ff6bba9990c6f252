/**
 * The early prompt box in a real pseudo-terminal against the built CLI (`pnpm build` first): keys
 * typed as soon as the box shows, before the chat is ready, are echoed and none is lost (text,
 * Backspace, an Enter that sends once the session is open, text after it), whether the chat mounts
 * before, between or after them (held at its test gate until the keys are in); Ctrl-C twice in the box
 * quits cleanly; and with project settings not yet trusted, the trust prompt comes first.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './harness.js'
import { BIN, chatGate, journals, ptyEnv, quitChat, startCli } from './pty-harness.js'

const ENTER = '\r'
const text = (value: string) => JSON.stringify({ blocks: [{ type: 'text', text: value }] })
/** The real composer's banner: the session's id instead of the early box's "starting…". */
const MOUNTED = /session [0-9a-f]{8}-/

describe('the early prompt box in a pseudo-terminal', () => {
  // The chat is held at its gate until the test opens it, so each order is certain, not a race.
  it.each([
    { order: 'every key before the chat mounts', beforeMount: 3 },
    { order: 'the text before the chat mounts, Enter and more text after', beforeMount: 1 },
    { order: 'every key after the chat mounts', beforeMount: 0 },
  ])(
    'keeps every key typed, Enter included: $order',
    async ({ beforeMount }) => {
      if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
      const home = tempDir('ze-pty-early-home-')
      const project = tempDir('ze-pty-early-proj-')
      const script = join(home, 'script.jsonl')
      writeFileSync(script, `${text('Hello from the early test.')}\n`)
      const gate = chatGate(home)
      const env = { ...ptyEnv(home), ...gate.variables }
      const cli = startCli(['--model', `scripted:${script}`, '--cwd', project], env)
      const first = await cli.waitFor((out) => out.includes('Ask anything'), 'the early prompt box')
      expect(first).toContain('session starting…')
      // The keys in three steps, each waiting for its echo (keys read in one chunk draw one frame);
      // the first `beforeMount` of them are typed while the gate holds the chat.
      const steps = [
        async () => {
          await cli.typeText('say hellp')
          await cli.type('\u007f', 'o')
          await cli.waitFor((out) => /› say hello\s*│/.test(out), 'the typed text echoed')
        },
        async () => {
          await cli.type(ENTER)
          // In the chat, the next key must come in a later read than Enter: Enter with text after it
          // in one read is a paste (kept as a line break), so wait for the answer the Enter asked for.
          if (beforeMount < 2) {
            await cli.waitFor((out) => out.includes('Hello from the early test.'), 'the answer to the prompt')
            return
          }
          // The early box shows the Enter as queued: the chat is not mounted (it is held at the gate).
          const all = await cli.waitFor((out) => out.includes('⏎ queued: say hello'), 'the queued prompt')
          expect(all.slice(0, all.indexOf('⏎ queued: say hello'))).not.toMatch(MOUNTED)
        },
        async () => {
          await cli.typeText('draft')
          await cli.waitFor((out) => /› draft\s*│/.test(out), 'the text typed after Enter')
        },
      ]
      for (const step of steps.slice(0, beforeMount)) await step()
      expect(cli.all()).not.toMatch(MOUNTED)
      gate.open()
      // From here on only what the mounted chat draws counts.
      cli.mark()
      await cli.waitFor((out) => MOUNTED.test(out), 'the chat to mount')
      for (const step of steps.slice(beforeMount)) await step()

      await cli.waitFor((out) => out.includes('Hello from the early test.'), 'the answer to the early prompt')
      await cli.waitFor((out) => /› draft\s*│/.test(out), 'the text typed after Enter, in the composer')
      await cli.idle('the turn to end')
      const sent = journals(env.XDG_DATA_HOME)
      expect(sent).toContain('say hello')
      expect(sent).not.toContain('say hellp')
      await quitChat(cli, '\u0015', '\u0004')
    },
    60_000,
  )

  it('quits cleanly on Ctrl-C twice in the early box, saving the session', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
    const home = tempDir('ze-pty-early-quit-home-')
    const project = tempDir('ze-pty-early-quit-proj-')
    const script = join(home, 'script.jsonl')
    writeFileSync(script, `${text('unused')}\n`)
    const cli = startCli(['--model', `scripted:${script}`, '--cwd', project], ptyEnv(home))
    await cli.waitFor((out) => out.includes('Ask anything'), 'the early prompt box')
    await cli.type('\u0003')
    await cli.waitFor((out) => out.includes('Press Ctrl-C again to quit'), 'the Ctrl-C warning')
    await quitChat(cli, '\u0003')
    expect(cli.all()).not.toMatch(MOUNTED)
    expect(cli.exitCode()).toBe(0)
  })

  it('draws no early box where the trust prompt comes first', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
    const home = tempDir('ze-pty-early-trust-home-')
    const project = tempDir('ze-pty-early-trust-proj-')
    mkdirSync(join(project, '.z-engine'))
    writeFileSync(join(project, '.z-engine', 'settings.toml'), '[permissions]\nallow = ["Bash(npm test)"]\n')
    const script = join(home, 'script.jsonl')
    writeFileSync(script, `${text('unused')}\n`)
    const cli = startCli(['--model', `scripted:${script}`, '--cwd', project], ptyEnv(home))
    await cli.waitFor((out) => out.includes('Do you trust this folder?'), 'the trust prompt')
    expect(cli.all()).not.toContain('session starting…')
    await cli.type('n')
    await cli.waitFor((out) => out.includes('Ask anything'), 'the composer')
    await quitChat(cli, '\u0004')
  })
})
