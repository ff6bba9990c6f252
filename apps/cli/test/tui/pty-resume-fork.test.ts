/**
 * Resuming and forking from the chat in a real pseudo-terminal against the built CLI (`pnpm build`
 * first): the `--resume` picker takes Down and Enter typed in one burst, and `--fork ID` /
 * `--continue --fork-session` continue a copy under a new id while the original stays as it was.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './harness.js'
import { BIN, filesUnder, ptyEnv, quitChat, startCli } from './pty-harness.js'

const ENTER = '\r'
const DOWN = '\u001b[B'
const text = (value: string) => JSON.stringify({ blocks: [{ type: 'text', text: value }] })
const quit = (cli: ReturnType<typeof startCli>) => quitChat(cli, '\u0015', '\u0004')

/** The session id from a chat's exit line. */
const savedId = (out: string): string => /Session (\S+) saved/.exec(out)?.[1] ?? ''

describe('resuming and forking in a pseudo-terminal', () => {
  it('opens the session Down chose even when Enter follows at once, and forks without touching the original', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
    const home = tempDir('ze-pty-fork-home-')
    const project = tempDir('ze-pty-fork-proj-')
    const env = ptyEnv(home)
    const script = (name: string, answer: string) => {
      const path = join(home, `${name}.jsonl`)
      writeFileSync(path, text(answer))
      return ['--model', `scripted:${path}`, '--cwd', project]
    }
    // Two sessions: "older topic" first, then "newer topic" (the picker lists the newest first).
    const ids: string[] = []
    for (const [name, prompt] of [
      ['older', 'older topic'],
      ['newer', 'newer topic'],
    ] as const) {
      const cli = startCli(script(name, `Answer about ${prompt}.`), env)
      await cli.waitFor((out) => out.includes('Ask anything'), 'the composer')
      await cli.typeText(prompt)
      await cli.type(ENTER)
      await cli.waitFor((out) => out.includes(`Answer about ${prompt}.`), 'the answer')
      await cli.idle('the turn to end')
      await quit(cli)
      ids.push(savedId(cli.all()))
    }
    const [olderId = '', newerId = ''] = ids

    // Down and Enter in one write, as a fast typist's keys arrive: the second row opens.
    const picked = startCli([...script('picked', 'unused'), '--resume'], env)
    await picked.waitFor((out) => out.includes('Resume a session'), 'the session picker')
    picked.mark()
    picked.write(`${DOWN}${ENTER}`)
    const resumed = await picked.waitFor((out) => out.includes('Ask anything'), 'the resumed chat')
    expect(resumed).toContain('Answer about older topic.')
    expect(resumed).not.toContain('Answer about newer topic.')
    await quit(picked)
    expect(savedId(picked.all())).toBe(olderId)

    // --fork ID: the older session's conversation under a new id; the original's log is unchanged.
    const storedLog = () =>
      filesUnder(env.XDG_DATA_HOME)
        .filter((path) => path.includes(olderId) && path.endsWith('log.jsonl'))
        .map((path) => readFileSync(path, 'utf8'))
        .join('')
    const before = storedLog()
    expect(before).toContain('older topic')
    const forked = startCli([...script('forked', 'Answer in the fork.'), '--fork', olderId.slice(0, 8)], env)
    // The early prompt box shows before the session opens: the copied transcript says it is open.
    await forked.waitFor((out) => out.includes('Answer about older topic.'), 'the forked chat')
    await forked.typeText('continue in the fork')
    await forked.type(ENTER)
    await forked.waitFor((out) => out.includes('Answer in the fork.'), 'the answer in the fork')
    await forked.idle('the fork turn to end')
    await quit(forked)
    const forkId = savedId(forked.all())
    expect(forkId).not.toBe('')
    expect(forkId).not.toBe(olderId)
    expect(storedLog()).toBe(before)

    // --continue --fork-session: a copy of the latest session (the fork just made), under yet another id.
    const again = startCli([...script('again', 'unused'), '--continue', '--fork-session'], env)
    await again.waitFor((out) => out.includes('Answer in the fork.'), 'the chat forked from the latest')
    await quit(again)
    expect([olderId, newerId, forkId]).not.toContain(savedId(again.all()))
  }, 120_000)
})
