import { mkdir, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runInProcess, type Sandbox, sandbox } from './helpers.js'

/**
 * Claude Code compatibility (issue 18, "Settings and permissions"): the user's
 * `~/.claude/settings.json`, list values, `additionalDirectories` and how rules from every file
 * decide, checked through `settings explain --json` and `permissions check --project`.
 */

async function put(root: string, path: string, value: unknown): Promise<void> {
  await mkdir(dirname(join(root, path)), { recursive: true })
  await writeFile(join(root, path), typeof value === 'string' ? value : JSON.stringify(value, null, 2))
}

type Notice = { severity: string; layer: string; code?: string; key?: string; message: string }
type Explained = { path: string; value: unknown; sources: Array<{ layer: string; file?: string }> }

async function explain(box: Sandbox, env: NodeJS.ProcessEnv = box.env) {
  const result = await runInProcess(['settings', 'explain', '--json', '--cwd', box.project], {
    cwd: box.root,
    env,
  })
  const value = JSON.parse(result.stdout) as {
    files: Record<string, string>
    explain: Explained[]
    notices: Notice[]
  }
  return { code: result.code, ...value, get: (path: string) => value.explain.find((e) => e.path === path) }
}

async function check(box: Sandbox, ...requests: unknown[]) {
  const result = await runInProcess(['permissions', 'check', '--project', box.project], {
    cwd: box.root,
    env: box.env,
    stdin: `${requests.map((request) => JSON.stringify(request)).join('\n')}\n`,
  })
  expect(result.stderr).toBe('')
  return result.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

async function trust(box: Sandbox): Promise<void> {
  expect((await runInProcess(['trust', box.project], { cwd: box.root, env: box.env })).code).toBe(0)
}

describe('Claude Code compatibility: settings and permissions', () => {
  it('reads ~/.claude/settings.json as a user layer below settings.toml', async () => {
    const box = await sandbox()
    await put(box.root, '.claude/settings.json', {
      permissions: { deny: ['Bash(curl:*)'], defaultMode: 'acceptEdits' },
    })
    await put(box.root, 'config/z-engine/settings.toml', '[permissions]\nmode = "plan"\n')
    const settings = await explain(box)
    expect(settings.files.claudeUser).toBe(join(box.root, '.claude', 'settings.json'))
    expect(settings.get('permissions.deny')?.sources.map((source) => source.layer)).toContain('claudeUser')
    // settings.toml is above ~/.claude/settings.json: its mode wins.
    expect(settings.get('permissions.mode')).toMatchObject({ value: 'plan' })
    expect(settings.get('permissions.mode')?.sources.map((source) => source.layer)).toEqual([
      'defaults',
      'claudeUser',
      'user',
    ])
    const [curl] = await check(box, { tool: 'Bash', input: { command: 'curl https://example.com' } })
    expect(curl).toMatchObject({
      decision: 'deny',
      matched: { list: 'deny', rule: 'Bash(curl:*)', source: join(box.root, '.claude', 'settings.json') },
    })
  })

  it('reads the user layer from CLAUDE_CONFIG_DIR when it is set, as Claude Code does', async () => {
    const box = await sandbox()
    await put(box.root, 'claude-config/settings.json', { permissions: { ask: ['Bash(git push:*)'] } })
    await put(box.root, '.claude/settings.json', { permissions: { deny: ['Bash(git push:*)'] } })
    box.env.CLAUDE_CONFIG_DIR = join(box.root, 'claude-config')
    const settings = await explain(box)
    expect(settings.files.claudeUser).toBe(join(box.root, 'claude-config', 'settings.json'))
    expect(settings.get('permissions.ask')?.value).toEqual(['Bash(git push:*)'])
    expect(settings.get('permissions.deny')?.value ?? []).toEqual([])
  })

  it('reports a string where a list is expected as an error naming the key (list_expected), loading the rest', async () => {
    const box = await sandbox()
    await put(box.project, '.claude/settings.json', {
      permissions: { deny: 'Bash(rm:*)', allow: 'Bash(npm test:*)', ask: ['Bash(git push:*)'] },
    })
    await trust(box)
    const settings = await explain(box)
    expect(settings.code).toBe(1)
    const errors = settings.notices.filter((notice) => notice.code === 'list_expected')
    expect(errors.map((notice) => [notice.severity, notice.key])).toEqual([
      ['error', 'permissions.allow'],
      ['error', 'permissions.deny'],
    ])
    expect(errors[1]?.message).toMatch(
      /permissions\.deny must be a list of strings.*not the string "Bash\(rm:\*\)"/,
    )
    // The rest of the file loads; the lone deny rule still applies (fail closed), the allow rule does not.
    expect(settings.get('permissions.ask')?.value).toEqual(['Bash(git push:*)'])
    const [rm, npm] = await check(
      box,
      { tool: 'Bash', input: { command: 'rm -rf build' } },
      { tool: 'Bash', input: { command: 'npm test' } },
    )
    expect(rm).toMatchObject({ decision: 'deny', matched: { list: 'deny', rule: 'Bash(rm:*)' } })
    expect(npm).toMatchObject({ decision: 'ask' })
  })

  it('resolves additionalDirectories: ~ against home, a relative path against the project', async () => {
    const box = await sandbox()
    await put(box.project, '.claude/settings.json', {
      permissions: { additionalDirectories: ['~/notes', '../shared', '/opt/data'] },
    })
    await trust(box)
    const settings = await explain(box)
    expect(settings.get('permissions.additional_directories')?.value).toEqual([
      join(box.root, 'notes'),
      join(box.root, 'shared'),
      '/opt/data',
    ])
    const [shared] = await check(box, {
      tool: 'Read',
      input: { file_path: join(box.root, 'shared', 'a.txt') },
    })
    expect(shared).toMatchObject({ decision: 'allow' })
  })

  it('permissions check --project says which list and rule (with its file) matched', async () => {
    const box = await sandbox()
    const claude = join(box.project, '.claude', 'settings.json')
    const toml = join(box.project, '.z-engine', 'settings.toml')
    await put(box.project, '.claude/settings.json', {
      permissions: {
        allow: ['Bash(npm test:*)', 'Write(out/**)'],
        ask: ['Skill(deploy *)'],
        deny: ['mcp__github', 'Read(./.env)'],
      },
    })
    await put(box.project, '.z-engine/settings.toml', '[permissions]\ndeny = ["Skill(deploy prod*)"]\n')
    await trust(box)
    const answers = await check(
      box,
      { tool: 'Bash', input: { command: 'NODE_ENV=test npm test' } },
      { tool: 'Write', input: { file_path: 'out/report.txt', content: 'x' } },
      { tool: 'Edit', input: { file_path: '.env', old_string: 'a', new_string: 'b' } },
      { tool: 'mcp__github__create_issue', input: {} },
      { tool: 'Skill', input: { skill: 'deploy', args: 'production' } },
      { tool: 'Skill', input: { skill: 'deploy', args: 'staging' } },
    )
    expect(answers.map((answer) => [answer.decision, answer.matched])).toEqual([
      ['allow', { list: 'allow', rule: 'Bash(npm test:*)', source: claude }],
      ['allow', { list: 'allow', rule: 'Write(out/**)', source: claude }],
      ['deny', { list: 'deny', rule: 'Read(./.env)', source: claude }],
      ['deny', { list: 'deny', rule: 'mcp__github', source: claude }],
      ['deny', { list: 'deny', rule: 'Skill(deploy prod*)', source: toml }],
      ['ask', { list: 'ask', rule: 'Skill(deploy *)', source: claude }],
    ])
  })

  it('permissions check --project keeps an untrusted project to its deny and ask rules', async () => {
    const box = await sandbox()
    await put(box.project, '.claude/settings.json', {
      permissions: { allow: ['Bash(npm test:*)'], deny: ['Bash(curl:*)'] },
    })
    const [npm, curl] = await check(
      box,
      { tool: 'Bash', input: { command: 'npm test' } },
      { tool: 'Bash', input: { command: 'curl x' } },
    )
    expect(npm).toMatchObject({ decision: 'ask' })
    expect(curl).toMatchObject({ decision: 'deny', matched: { list: 'deny' } })
  })
})
