import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { Engine } from '@z-engine/engine'
import { describe, expect, it } from 'vitest'
import { runInProcess, type Sandbox, sandbox } from './helpers.js'

const bwrapInstalled =
  ['/usr/bin/bwrap', '/usr/local/bin/bwrap'].some((path) => existsSync(path)) || process.env.CI !== undefined

/** Pids of `sleep 300` shells whose command line names this folder (a hook's leftovers). */
function processesNamed(folder: string): string[] {
  const out = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
  return out
    .split('\n')
    .filter((line) => line.includes(folder) && line.includes('sleep 300'))
    .map((line) => line.trim().split(/\s+/)[0] ?? '')
}

async function put(root: string, path: string, text: string): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true })
  await writeFile(join(root, path), text)
}

/** A project with one of everything, one broken file per kind, trusted or not. */
async function fixture(trusted: boolean): Promise<Sandbox> {
  const box = await sandbox()
  const p = box.project
  await put(
    p,
    '.z-engine/agents/tester.md',
    '---\nname: tester\ndescription: Runs the tests\ntools: [Bash, Read]\nmodel: fast\ncolour: blue\n---\nRun the tests.\n',
  )
  await put(p, '.z-engine/agents/broken.md', '---\nname: [unclosed\n---\nbody\n')
  await put(
    p,
    '.z-engine/commands/greet.md',
    '---\ndescription: Greet someone\nargument-hint: <name>\n---\nSay hello to $ARGUMENTS.\nRepo:\n!`echo from-shell`\nSee @README.md\n',
  )
  await put(p, '.z-engine/commands/bad.md', '---\ndescription: nothing to send\n---\n')
  await put(
    p,
    '.z-engine/skills/demo/SKILL.md',
    '---\nname: demo\ndescription: A demo skill\n---\nDo the demo.\n',
  )
  await put(
    p,
    '.z-engine/settings.toml',
    [
      '[[hooks.PreToolUse]]',
      'matcher = "Bash"',
      `command = "node -e \\"let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const i=JSON.parse(s);if(i.tool_input.command.includes('rm')){console.error('no rm');process.exit(2)}})\\""`,
      '',
      '[mcp.servers.files]',
      'command = "mcp-files"',
      'args = ["--root", "."]',
      '',
      '[agents]',
      'max_turns = 12',
      '',
    ].join('\n'),
  )
  await put(p, 'AGENTS.md', '# Project rules\nSee @docs/extra.md\n')
  await put(p, 'docs/extra.md', 'Extra instructions.\n')
  await put(
    p,
    '.z-engine/rules/ts.md',
    '---\nglobs: ["*.ts"]\ndescription: TypeScript style\n---\nUse strict types.\n',
  )
  if (trusted) await (await Engine.create({ env: box.env })).trustWorkspace(p)
  return box
}

const json = async (box: Sandbox, argv: string[], cwd = box.root) => {
  const result = await runInProcess([...argv, '--json', '--cwd', box.project], { cwd, env: box.env })
  return { ...result, value: JSON.parse(result.stdout || 'null') as Record<string, unknown> }
}

describe('inspection commands', () => {
  it('agents, commands, skills list every parsed field, source and layer, and per-file errors', async () => {
    const box = await fixture(true)
    const agents = await json(box, ['agents', 'list'])
    expect(agents.code).toBe(1)
    const tester = (agents.value.agents as Array<Record<string, unknown>>).find(
      (agent) => agent.name === 'tester',
    )
    expect(tester).toMatchObject({
      description: 'Runs the tests',
      tools: ['Bash', 'Read'],
      model: 'fast',
      prompt: expect.stringContaining('Run the tests.'),
      source: { layer: 'project', path: join(box.project, '.z-engine/agents/tester.md') },
    })
    expect((agents.value.agents as unknown[]).length).toBeGreaterThanOrEqual(6)
    expect(agents.value.errors).toEqual([
      expect.objectContaining({ path: join(box.project, '.z-engine/agents/broken.md') }),
    ])

    const commands = await json(box, ['commands', 'list'])
    expect(commands.code).toBe(1)
    const entries = commands.value.commands as Array<{
      kind: string
      name: string
      definition?: Record<string, unknown>
    }>
    expect(entries.find((entry) => entry.name === 'greet')).toMatchObject({
      kind: 'custom',
      definition: { argumentHint: '<name>', source: { layer: 'project' } },
    })
    expect(entries.some((entry) => entry.kind === 'engine' && entry.name === 'compact')).toBe(true)
    expect(commands.value.errors).toEqual([
      expect.objectContaining({ path: join(box.project, '.z-engine/commands/bad.md') }),
    ])

    const skills = await json(box, ['skills', 'list'])
    expect(skills.code).toBe(0)
    expect(skills.value.skills).toEqual([
      expect.objectContaining({
        name: 'demo',
        description: 'A demo skill',
        source: expect.objectContaining({ layer: 'project' }),
      }),
    ])

    const text = await runInProcess(['agents', 'list', '--cwd', box.project], { cwd: box.root, env: box.env })
    expect(text.stdout).toMatch(/tester\s+project/)
    expect(text.stdout).toContain('error:')
    expect(text.stdout).toMatch(/warning: .*tester\.md: unknown field "colour"/)
    expect(tester?.warnings).toEqual([{ code: 'field_unknown', message: expect.stringContaining('colour') }])
  })

  it('commands expand shows the prompt without starting a turn; allowed shell lines run, files inline', async () => {
    const box = await fixture(true)
    const result = await runInProcess(
      ['commands', 'expand', 'greet', 'Ada', 'Lovelace', '--cwd', box.project],
      {
        cwd: box.root,
        env: box.env,
      },
    )
    expect(result.code, result.stderr).toBe(0)
    expect(result.stdout).toContain('Say hello to Ada Lovelace.')
    expect(result.stdout).toContain('from-shell')
    expect(result.stdout).toContain('# demo')
    const unknown = await runInProcess(['commands', 'expand', 'gret', '--cwd', box.project], {
      cwd: box.root,
      env: box.env,
    })
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toContain('/greet')
    const sessions = await runInProcess(['sessions', 'list', '--json', '--cwd', box.project], {
      cwd: box.root,
      env: box.env,
    })
    expect(JSON.parse(sessions.stdout)).toEqual([])
  })

  it('hooks list and hooks test run the configured hook and report the combined decision', async () => {
    const box = await fixture(true)
    const listed = await json(box, ['hooks', 'list'])
    expect(
      (listed.value.hooks as { PreToolUse: Array<{ matcher: string; source: string }> }).PreToolUse,
    ).toEqual([
      expect.objectContaining({ matcher: 'Bash', source: join(box.project, '.z-engine/settings.toml') }),
    ])
    await put(
      box.root,
      'rm.json',
      JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'rm -rf build' } }),
    )
    await put(box.root, 'ls.json', JSON.stringify({ tool_name: 'Bash', tool_input: { command: 'ls' } }))
    const blocked = await json(box, ['hooks', 'test', 'PreToolUse', '--input', 'rm.json'])
    expect(blocked.code, blocked.stderr).toBe(0)
    expect(blocked.value).toMatchObject({ blocked: true, blockReason: expect.stringContaining('no rm') })
    const passed = await json(box, ['hooks', 'test', 'PreToolUse', '--input', 'ls.json'])
    expect(passed.value).toMatchObject({
      blocked: false,
      results: [expect.objectContaining({ exitCode: 0 })],
    })
    const text = await runInProcess(
      ['hooks', 'test', 'PreToolUse', '--input', 'rm.json', '--cwd', box.project],
      {
        cwd: box.root,
        env: box.env,
      },
    )
    expect(text.stdout).toContain('decision: blocked')
    const badEvent = await runInProcess(['hooks', 'test', 'PreToolUze', '--input', 'rm.json'], {
      cwd: box.root,
      env: box.env,
    })
    expect(badEvent.code).toBe(2)
    expect(badEvent.stderr).toContain("'PreToolUse'")
  })

  it('hooks test gives hooks the allowlisted environment, never the engine credentials', async () => {
    const box = await fixture(true)
    await put(
      box.project,
      '.z-engine/settings.toml',
      [
        '[[hooks.UserPromptSubmit]]',
        `command = "node -e \\"console.log(JSON.stringify({hookSpecificOutput:{hookEventName:'UserPromptSubmit',additionalContext:'key='+(process.env.ANTHROPIC_API_KEY??'none')+' secret='+(process.env.MY_TOKEN??'none')+' path='+(process.env.PATH?'set':'none')}}))\\""`,
        '',
      ].join('\n'),
    )
    await put(box.root, 'prompt.json', JSON.stringify({ prompt: 'hi' }))
    const result = await runInProcess(
      ['hooks', 'test', 'UserPromptSubmit', '--input', 'prompt.json', '--json', '--cwd', box.project],
      { cwd: box.root, env: { ...box.env, ANTHROPIC_API_KEY: 'sk-ant-secret', MY_TOKEN: 'tok-123' } },
    )
    expect(result.code, result.stderr).toBe(0)
    expect(JSON.parse(result.stdout)).toMatchObject({ additionalContext: ['key=none secret=none path=set'] })
  })

  it.skipIf(!bwrapInstalled)(
    'hooks test runs a hook confined as a session does (issue 34): no ~/.npmrc, writes outside vanish, leftovers killed',
    async () => {
      const box = await fixture(true)
      await put(box.root, '.npmrc', '//registry.npmjs.org/:_authToken=NPMRC-SECRET\n')
      await put(
        box.project,
        '.z-engine/settings.toml',
        [
          '[[hooks.UserPromptSubmit]]',
          `command = "cat $HOME/.npmrc; echo x > ${box.root}/escaped.txt; (sleep 300; echo late > late.txt) & echo ran > hook-out.txt"`,
          '',
        ].join('\n'),
      )
      await put(box.root, 'prompt.json', JSON.stringify({ prompt: 'hi' }))
      const result = await runInProcess(
        ['hooks', 'test', 'UserPromptSubmit', '--input', 'prompt.json', '--json', '--cwd', box.project],
        { cwd: box.root, env: box.env },
      )
      expect(result.code, result.stderr).toBe(0)
      const value = JSON.parse(result.stdout) as { results: Array<{ stdout: string; stderr: string }> }
      expect(JSON.stringify(value.results)).not.toContain('NPMRC-SECRET')
      // The project is writable, as for a session's hooks; the home is an empty view whose writes vanish.
      expect(await readFile(join(box.project, 'hook-out.txt'), 'utf8')).toBe('ran\n')
      expect(existsSync(join(box.root, 'escaped.txt'))).toBe(false)
      // `(sleep 300 …) &` died with the run: its process scope was killed before the command returned.
      expect(processesNamed(box.root)).toEqual([])
    },
  )

  it('an untrusted project has its hooks and MCP servers withheld, and says so', async () => {
    const box = await fixture(false)
    const hooks = await json(box, ['hooks', 'list'])
    expect(hooks.value.hooks).toEqual({})
    expect(hooks.value.withheld).toEqual(expect.arrayContaining(['hooks']))
    const mcp = await json(box, ['mcp', 'list'])
    expect(mcp.value.servers).toEqual([])
    const trusted = await fixture(true)
    const listed = await json(trusted, ['mcp', 'list'])
    expect(listed.value.servers).toEqual([
      expect.objectContaining({
        name: 'files',
        command: 'mcp-files',
        args: ['--root', '.'],
        layer: 'project',
        status: 'failed',
        lastError: expect.stringContaining('ENOENT'),
      }),
    ])
  })

  it('mcp list in an untrusted project starts no server, not even the user’s own (issue 34)', async () => {
    const box = await fixture(false)
    const marker = join(box.root, 'started')
    await put(
      join(box.root, 'config'),
      'z-engine/settings.toml',
      `[mcp.servers.mine]\ncommand = "sh"\nargs = ["-c", "touch ${marker}"]\ntimeout_ms = 2000\n`,
    )
    await put(
      box.project,
      '.mcp.json',
      JSON.stringify({ mcpServers: { evil: { command: 'sh', args: ['-c', `touch ${marker}`] } } }),
    )
    const listed = await json(box, ['mcp', 'list'])
    const servers = listed.value.servers as Array<Record<string, unknown>>
    expect(servers.find((server) => server.name === 'mine')).toMatchObject({ status: 'not started' })
    expect(servers.find((server) => server.name === 'evil')).toBeUndefined()
    expect(listed.value.withheldServers).toEqual(['evil', 'files'])
    expect(existsSync(marker)).toBe(false)
    // In words: the user's server as not started, then one line saying why and how to trust.
    const text = await runInProcess(['mcp', 'list', '--cwd', box.project], { cwd: box.root, env: box.env })
    expect(text.code, text.stderr).toBe(0)
    const lines = text.stdout.trim().split('\n')
    expect(lines).toEqual([
      expect.stringMatching(/^mine {2}sh {2}\[not started\]/),
      "The workspace is not trusted: the server above was not started; this project's servers evil, files are withheld. Trust it with 'z-engine trust' (or /trust in the chat), then run 'z-engine mcp list' again.",
    ])
  })

  it('mcp list starts each server to show its real status, tool count and stderr, then stops it', async () => {
    const box = await fixture(true)
    const require = createRequire(import.meta.url)
    const entry = join(
      dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')),
      'dist',
      'index.js',
    )
    await put(
      box.project,
      '.mcp.json',
      JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [entry, 'stdio'] } } }),
    )
    const listed = await json(box, ['mcp', 'list'])
    const servers = listed.value.servers as Array<Record<string, unknown>>
    expect(servers.find((server) => server.name === 'everything')).toMatchObject({
      layer: 'mcpJson',
      status: 'ready',
      transport: 'stdio',
      toolCount: expect.any(Number),
      stderr: expect.stringContaining('Starting'),
    })
    expect((servers.find((server) => server.name === 'everything')!.toolCount as number) > 5).toBe(true)
  })

  it('instructions lists files in order with imports resolved, and rules', async () => {
    const box = await fixture(true)
    const result = await json(box, ['instructions'])
    const files = result.value.files as Array<{ path: string; importedFrom?: string; scope: string }>
    expect(files.map((file) => file.path)).toEqual(['AGENTS.md', 'docs/extra.md'])
    expect(files[1]).toMatchObject({ importedFrom: 'AGENTS.md', scope: 'project' })
    expect(result.value.rules).toEqual([
      expect.objectContaining({ globs: ['*.ts'], description: 'TypeScript style' }),
    ])
  })

  it('settings explain names the layer and file of each value', async () => {
    const box = await fixture(true)
    const result = await json(box, ['settings', 'explain', 'agents.max_turns'])
    expect(result.value.explain).toEqual([
      expect.objectContaining({
        path: 'agents.max_turns',
        value: 12,
        sources: [
          expect.objectContaining({ layer: 'defaults' }),
          expect.objectContaining({ layer: 'project', file: join(box.project, '.z-engine/settings.toml') }),
        ],
      }),
    ])
    const env = await runInProcess(['settings', 'explain', 'agents.max_turns', '--cwd', box.project], {
      cwd: box.root,
      env: { ...box.env, Z_ENGINE_MAX_TURNS: '3' },
    })
    expect(env.stdout).toMatch(/agents\.max_turns = 3\s+← env/)
  })

  it('settings explain answers for a key nothing sets (its default) and names an unknown one', async () => {
    const box = await fixture(true)
    const run = (key: string) =>
      runInProcess(['settings', 'explain', key, '--cwd', box.project], { cwd: box.root, env: box.env })
    // A table nothing sets: each of its keys, with its default or what happens when it is absent.
    const model = (await run('model')).stdout
    expect(model).not.toContain('model = {}')
    expect(model).toMatch(
      /^model\.name\s+← defaults: not set .* — Main model id; the catalog default when absent\./m,
    )
    expect(model).toMatch(/^model\.effort\s+← defaults: not set/m)
    expect(model).toMatch(/^model\.prices\.input\s+← defaults: not set/m)
    expect((await run('model.name')).stdout).toMatch(
      /^model\.name\s+← defaults: not set .* — Main model id; the catalog default when absent\./m,
    )
    expect((await run('modle')).stdout).toContain("modle: no such setting (see 'z-engine settings explain'")
  })

  it('doctor reports key presence without printing keys, tools on PATH and writable folders', async () => {
    const box = await sandbox()
    const secret = 'sk-ant-very-secret-value'
    const result = await runInProcess(['doctor', '--json', '--cwd', box.project], {
      cwd: box.root,
      env: { ...box.env, ANTHROPIC_API_KEY: secret },
    })
    expect(result.stdout).not.toContain(secret)
    const checks = (
      JSON.parse(result.stdout) as { checks: Array<{ name: string; status: string; detail: string }> }
    ).checks
    const byName = new Map(checks.map((check) => [check.name, check]))
    expect(byName.get('ANTHROPIC_API_KEY')).toMatchObject({ status: 'ok', detail: 'set' })
    expect(byName.get('GEMINI_API_KEY')).toMatchObject({
      status: 'warn',
      detail: 'not set (nor GOOGLE_API_KEY)',
    })
    expect(byName.get('model')).toMatchObject({ status: 'ok' })
    expect(byName.get('git')).toMatchObject({ status: 'ok' })
    expect(byName.get('data dir')).toMatchObject({ status: 'ok' })
    for (const name of ['ripgrep', 'sandbox', 'typescript-language-server', 'pyright'])
      expect(byName.has(name)).toBe(true)
    if (existsSync('/usr/bin/bwrap'))
      expect(byName.get('sandbox')).toMatchObject({
        status: 'ok',
        detail: expect.stringMatching(/^bubblewrap .* starts/),
      })
    expect(result.code).toBe(0)
    const missing = await runInProcess(['doctor', '--cwd', box.project], {
      cwd: box.root,
      env: { ...box.env, PATH: '' },
    })
    expect(missing.code).toBe(1)
    const google = await runInProcess(['doctor', '--json', '--cwd', box.project], {
      cwd: box.root,
      env: { ...box.env, GOOGLE_API_KEY: 'g-secret' },
    })
    expect(google.stdout).not.toContain('g-secret')
    expect(
      (JSON.parse(google.stdout) as { checks: Array<{ name: string; detail: string }> }).checks.find(
        (check) => check.name === 'GEMINI_API_KEY',
      ),
    ).toMatchObject({ detail: 'set as GOOGLE_API_KEY' })
    expect(missing.stdout).toMatch(/✗ model .*ANTHROPIC_API_KEY/)
    expect(missing.stdout).toMatch(/✗ git\s+not on PATH/)
    // No backend (bwrap is not on this PATH): a warning with how to install one, not a failure.
    expect(missing.stdout).toMatch(
      /! sandbox\s+bubblewrap \(bwrap\) is not installed; commands run unconfined\. To fix: install bubblewrap/,
    )
  })
})
