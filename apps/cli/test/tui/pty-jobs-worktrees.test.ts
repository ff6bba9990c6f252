/**
 * Background jobs and worktree agents from the chat, in a real pseudo-terminal against the built
 * CLI (`pnpm build` first): `/jobs` lists, shows the output of and stops a background shell;
 * `/worktrees` lists a worktree agent's waiting changes, shows their diff and applies them.
 */
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './harness.js'
import { BIN, ptyEnv, quitChat, startCli } from './pty-harness.js'

const ENTER = '\r'
const step = (block: Record<string, unknown>) => JSON.stringify({ blocks: [block] })
const text = (value: string) => step({ type: 'text', text: value })
const tool = (name: string, input: Record<string, unknown>) => step({ type: 'tool_use', name, input })

describe('jobs and worktrees in the chat', () => {
  it('lists, shows and stops a background job; shows and applies a worktree agent’s changes', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
    const home = tempDir('ze-pty-jobs-home-')
    const project = tempDir('ze-pty-jobs-proj-')
    writeFileSync(join(project, 'README.md'), '# demo\n')
    const git = (...args: string[]) => execFileSync('git', args, { cwd: project, encoding: 'utf8' })
    git('init', '-q')
    git('add', '.')
    git('-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'init')
    const script = join(home, 'script.jsonl')
    writeFileSync(
      script,
      [
        tool('Bash', { command: 'echo ready-marker; sleep 300', run_in_background: true }),
        text('Started the server.'),
        tool('Agent', {
          description: 'Write notes',
          prompt: 'Write the notes.',
          subagent_type: 'general',
          isolation: 'worktree',
        }),
        tool('Write', { file_path: 'notes.txt', content: 'from the agent\n' }),
        text('Wrote the notes in my worktree.'),
        text('The agent is done.'),
      ].join('\n'),
    )
    const env = ptyEnv(home)
    const cli = startCli(
      ['--model', `scripted:${script}`, '--cwd', project, '--permission-mode', 'bypass'],
      env,
      { cols: 110, rows: 40 },
    )
    await cli.waitFor((out) => out.includes('Ask anything'), 'the composer')
    const send = async (line: string) => {
      cli.mark()
      await cli.typeText(line)
      await cli.type(ENTER)
    }

    await send('start the server')
    await cli.waitFor((out) => out.includes('Started the server.'), 'the answer')
    await cli.idle('the first turn to end')

    await send('/jobs')
    const listed = await cli.waitFor((out) => out.includes('/jobs stop <id>'), 'the job list')
    const jobId = /(\S+) shell · running · echo ready-marker/.exec(listed)?.[1]
    expect(jobId, listed).toBeDefined()
    await send(`/jobs output ${jobId}`)
    await cli.waitFor((out) => out.includes('ready-marker'), "the job's output")
    await send(`/jobs stop ${jobId}`)
    await cli.waitFor((out) => out.includes(`Stopped job ${jobId} (killed)`), 'the stopped job')

    await send('have an agent write the notes')
    await cli.waitFor((out) => out.includes('The agent is done.'), 'the agent to finish')
    await cli.idle('the second turn to end')
    expect(existsSync(join(project, 'notes.txt'))).toBe(false)

    await send('/worktrees')
    const waiting = await cli.waitFor((out) => out.includes('/worktrees apply <id>'), 'the worktree list')
    const agentId = /(\S+) general: Write notes · pending: 1 file changed/.exec(waiting)?.[1]
    expect(agentId, waiting).toBeDefined()
    await send(`/worktrees diff ${agentId}`)
    await cli.waitFor((out) => out.includes('+from the agent'), 'the diff')
    await send(`/worktrees apply ${agentId}`)
    await cli.waitFor(
      (out) => out.includes(`Applied agent ${agentId}'s changes (1 file(s))`),
      'the applied notice',
    )
    expect(readFileSync(join(project, 'notes.txt'), 'utf8')).toBe('from the agent\n')
    await quitChat(cli, '\u0015', '\u0004')
  }, 120_000)
})
