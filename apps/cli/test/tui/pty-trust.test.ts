/**
 * Workspace trust in an 80×24 pseudo-terminal against the built CLI: the prompt on first start in
 * an untrusted folder with project settings (what trust enables, counted), "always in this project"
 * in that untrusted folder honoured by the next session, and `/trust`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { tempDir } from './harness.js'
import { BIN, ptyEnv, quitChat, startCli } from './pty-harness.js'

const ENTER = '\r'
const SIZE = { cols: 80, rows: 24 }
const text = (value: string) => JSON.stringify({ blocks: [{ type: 'text', text: value }] })
const bash = (command: string, id: string) =>
  JSON.stringify({ blocks: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] })

const quit = (cli: ReturnType<typeof startCli>) => quitChat(cli, '\u0004')

describe('workspace trust in an 80×24 pseudo-terminal', () => {
  it('asks with counts, keeps an untrusted "always in this project" rule, and /trust records trust', async () => {
    if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run 'pnpm build' before the pty tests.`)
    const home = tempDir('ze-pty-trust-home-')
    const project = tempDir('ze-pty-trust-proj-')
    mkdirSync(join(project, '.z-engine'))
    writeFileSync(
      join(project, '.z-engine', 'settings.toml'),
      [
        '[permissions]',
        'allow = ["Read(src/**)", "Bash(npm test)"]',
        '[[hooks.PreToolUse]]',
        'command = "true"',
        '[mcp.servers.tools]',
        'command = "false"',
        '',
      ].join('\n'),
    )
    const script = join(home, 'script.jsonl')
    writeFileSync(
      script,
      [
        bash('touch made.txt', 'call-1'),
        text('Made it.'),
        bash('touch made.txt', 'call-2'),
        text('Made again.'),
      ].join('\n'),
    )
    const env = ptyEnv(home)
    const args = ['--model', `scripted:${script}`, '--cwd', project]

    // First start: the trust prompt says what trust would turn on.
    const cli = startCli(args, env, SIZE)
    const prompt = await cli.waitFor(
      (out) => out.includes('Do you trust this folder?') && out.includes('allow rule'),
      'the trust prompt',
    )
    expect(prompt.replace(/\s+/g, ' ')).toContain('1 hook, 2 allow rules, 1 MCP server')
    cli.mark()
    await cli.type('n')
    await cli.waitFor((out) => out.includes('Ask anything'), 'the composer after "not now"')

    // "Yes, always in this project" while untrusted: saved to the user's config, not the project.
    await cli.type('x')
    await cli.waitFor((out) => /› x\s*│/.test(out), 'the chat reading keys')
    await cli.type('\u0015')
    await cli.typeText('make the file')
    await cli.type(ENTER)
    await cli.waitFor((out) => out.includes('[p] Yes, always in this project'), 'the approval card')
    cli.mark()
    await cli.type('p')
    await cli.waitFor((out) => out.includes('Made it.'), 'the answer')
    const projects = join(env.XDG_CONFIG_HOME, 'z-engine', 'projects')
    const saved = readdirSync(projects).map((name) => readFileSync(join(projects, name), 'utf8'))
    expect(saved.join('\n')).toMatch(/allow = \[.*Bash\(touch/)
    expect(saved.join('\n')).toContain(project)
    expect(existsSync(join(project, '.z-engine', 'settings.local.toml'))).toBe(false)
    await quit(cli)

    // The next session, still untrusted, honours the rule: no approval card this time.
    const again = startCli(args, env, SIZE)
    await again.waitFor((out) => out.includes('Do you trust this folder?'), 'the trust prompt again')
    again.mark()
    await again.type('n')
    await again.waitFor((out) => out.includes('Ask anything'), 'the composer')
    await again.type('x')
    await again.waitFor((out) => /› x\s*│/.test(out), 'the chat reading keys')
    await again.type('\u0015')
    again.mark()
    await again.typeText('make it again')
    await again.type(ENTER)
    // (Each process reads the script from its start, so the same call and answer come again.)
    const second = await again.waitFor((out) => out.includes('Made it.'), 'the second answer')
    expect(second).toContain('✓ Bash touch made.txt')
    expect(second).not.toContain('[y] Yes, once')

    // /trust opens the prompt; y records the folder in trust.json.
    again.mark()
    await again.typeText('/trust')
    await again.type(ENTER)
    await again.waitFor((out) => out.includes('Do you trust this folder?'), 'the /trust prompt')
    await again.type('y')
    await again.waitFor((out) => out.includes('Workspace trusted'), 'the trusted notice')
    const trust = readFileSync(join(env.XDG_CONFIG_HOME, 'z-engine', 'trust.json'), 'utf8')
    expect(trust).toContain(project)
    await quit(again)
  })
})
