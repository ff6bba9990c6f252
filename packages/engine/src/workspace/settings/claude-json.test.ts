/**
 * Issue 35: Claude Code's user and local MCP scopes, kept in `~/.claude.json`, read as settings
 * layers with Claude Code's precedence (local > project `.mcp.json` > user), never trust-gated, and
 * changed in place keeping every other key and the file's mode.
 */
import { mkdir, mkdtemp, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { claudeJsonLayers, claudeJsonServers, withClaudeJsonServers } from './claude-json.js'
import { readClaudeJson, updateClaudeJson } from './claude-json-file.js'
import { loadSettings } from './load-settings.js'
import { claudeJsonFile } from './paths.js'

let base: string
let home: string
let projectRoot: string

beforeEach(async () => {
  base = await mkdtemp(join(tmpdir(), 'z-claude-json-'))
  home = join(base, 'home')
  projectRoot = join(base, 'project')
  await mkdir(home, { recursive: true })
  await mkdir(projectRoot, { recursive: true })
})
afterEach(() => rm(base, { recursive: true, force: true }))

/** The shape Claude Code 2.1.332 left after `claude mcp add -s user …` and `claude mcp add files …`. */
const claudeShaped = (root: string) => ({
  firstStartTime: '2026-12-07T11:57:14.243Z',
  machineID: 'ed03',
  mcpServers: {
    files: { type: 'stdio', command: 'user-files', args: [], env: {} },
    api: { type: 'http', url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
  },
  projects: {
    [root]: {
      allowedTools: [],
      mcpServers: { files: { type: 'stdio', command: 'node', args: ['server.js'], env: { A: '1' } } },
      hasTrustDialogAccepted: false,
    },
    '/elsewhere': { mcpServers: { other: { command: 'other' } } },
  },
})

const load = (trusted: boolean, env: Record<string, string> = {}) =>
  loadSettings({ home, configDir: join(home, '.config', 'z-engine'), projectRoot, env, trusted })

describe('~/.claude.json MCP layers', () => {
  it('reads the user scope and this project’s local scope, local over .mcp.json over user', async () => {
    await writeFile(join(home, '.claude.json'), JSON.stringify(claudeShaped(projectRoot)))
    await writeFile(
      join(projectRoot, '.mcp.json'),
      JSON.stringify({
        mcpServers: { files: { command: 'project-files' }, api: { command: 'project-api' } },
      }),
    )
    const loaded = await load(true)
    const servers = loaded.settings.mcp.servers
    expect(Object.keys(servers).sort()).toEqual(['api', 'files'])
    // local (~/.claude.json projects[root]) beats project (.mcp.json), which beats user.
    expect(servers.files).toEqual({ type: 'stdio', command: 'node', args: ['server.js'], env: { A: '1' } })
    expect(servers.api).toEqual({ command: 'project-api' })
    const source = (name: string) =>
      loaded.explain
        .filter((entry) => entry.path === `mcp.servers.${name}`)
        .at(-1)
        ?.sources.at(-1)
    expect(source('files')).toMatchObject({ layer: 'claudeJsonLocal', file: join(home, '.claude.json') })
    expect(loaded.notices).toEqual([])
  })

  it('keeps user and local servers in an untrusted workspace (they are the user’s own) and withholds .mcp.json', async () => {
    await writeFile(join(home, '.claude.json'), JSON.stringify(claudeShaped(projectRoot)))
    await writeFile(
      join(projectRoot, '.mcp.json'),
      JSON.stringify({ mcpServers: { proj: { command: 'p' } } }),
    )
    const loaded = await load(false)
    expect(Object.keys(loaded.settings.mcp.servers).sort()).toEqual(['api', 'files'])
    expect(loaded.settings.mcp.servers.files?.command).toBe('node')
    expect(loaded.trustRequired).toContain('mcp_servers')
  })

  it('finds the file in CLAUDE_CONFIG_DIR as Claude Code does, and is not read with compat.claude off', async () => {
    const configDir = join(base, 'claude-config')
    await mkdir(configDir)
    expect(claudeJsonFile(home, { CLAUDE_CONFIG_DIR: configDir })).toBe(join(configDir, '.claude.json'))
    expect(claudeJsonFile(home, {})).toBe(join(home, '.claude.json'))
    await writeFile(join(configDir, '.claude.json'), JSON.stringify(claudeShaped(projectRoot)))
    expect(
      Object.keys((await load(true, { CLAUDE_CONFIG_DIR: configDir })).settings.mcp.servers),
    ).toHaveLength(2)
    expect((await load(true)).settings.mcp.servers).toEqual({})
    const off = await load(true, { CLAUDE_CONFIG_DIR: configDir, Z_ENGINE_COMPAT_CLAUDE: 'false' })
    expect(off.settings.compat.claude).toBe(false)
    expect(off.settings.mcp.servers).toEqual({})
  })

  it('reports a malformed file by name and skips its servers, the rest loading', async () => {
    const file = join(home, '.claude.json')
    await writeFile(file, '{"mcpServers": {')
    await writeFile(
      join(projectRoot, '.mcp.json'),
      JSON.stringify({ mcpServers: { proj: { command: 'p' } } }),
    )
    const loaded = await load(true)
    expect(Object.keys(loaded.settings.mcp.servers)).toEqual(['proj'])
    const notice = loaded.notices.find((item) => item.layer === 'claudeJsonUser')
    expect(notice).toMatchObject({ severity: 'error', code: 'json_invalid', file })
    expect(notice?.message).toContain(`${file} is not valid JSON`)
    expect(notice?.message).toContain('skipped until it is fixed')
  })

  it('checks each entry as a .mcp.json entry is checked', () => {
    const layers = claudeJsonLayers(
      '/h/.claude.json',
      JSON.stringify({
        mcpServers: { good: { command: 'x' }, bad: { command: 7 }, loose: { url: 'https://e.x/mcp' } },
      }),
      undefined,
    )
    expect(layers.local).toBeUndefined()
    expect(Object.keys((layers.user.data as { mcp: { servers: object } }).mcp.servers)).toEqual(['good'])
    expect(layers.user.notices.map((notice) => [notice.layer, notice.code])).toEqual([
      ['claudeJsonUser', 'server_invalid'],
      ['claudeJsonUser', 'server_refused'],
    ])
  })
})

describe('changing ~/.claude.json', () => {
  it('replaces one scope’s servers and keeps every other key, the project entry and the mode', async () => {
    const file = join(home, '.claude.json')
    const before = claudeShaped(projectRoot)
    await writeFile(file, JSON.stringify(before), { mode: 0o640 })
    const result = await updateClaudeJson(file, (config) => {
      const servers = claudeJsonServers(config, 'local', projectRoot)
      servers.extra = { command: 'extra', args: [] }
      return { config: withClaudeJsonServers(config, 'local', projectRoot, servers), value: 1 }
    })
    expect(result).toEqual({ ok: true, value: 1 })
    const after = JSON.parse(await readFile(file, 'utf8'))
    expect(after).toEqual({
      ...before,
      projects: {
        ...before.projects,
        [projectRoot]: {
          ...before.projects[projectRoot],
          mcpServers: { ...before.projects[projectRoot]!.mcpServers, extra: { command: 'extra', args: [] } },
        },
      },
    })
    expect((await stat(file)).mode & 0o777).toBe(0o640)
  })

  it('creates the file 0600 and a new project entry as Claude Code does', async () => {
    const file = join(home, '.claude.json')
    await updateClaudeJson(file, (config) => ({
      config: withClaudeJsonServers(config, 'local', projectRoot, { s: { command: 's', args: [] } }),
      value: undefined,
    }))
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({
      projects: {
        [projectRoot]: {
          allowedTools: [],
          mcpContextUris: [],
          mcpServers: { s: { command: 's', args: [] } },
          enabledMcpjsonServers: [],
          disabledMcpjsonServers: [],
          hasTrustDialogAccepted: false,
          hasClaudeMdExternalIncludesApproved: false,
          hasClaudeMdExternalIncludesWarningShown: false,
        },
      },
    })
  })

  it('leaves a malformed file untouched and says which file to fix', async () => {
    const file = join(home, '.claude.json')
    await writeFile(file, '{"numStartups": 3,')
    const result = await updateClaudeJson(file, (config) => ({
      config: { ...config, mcpServers: {} },
      value: 0,
    }))
    expect(result.ok).toBe(false)
    expect(!result.ok && result.error).toContain(`${file} is not valid JSON`)
    expect(await readFile(file, 'utf8')).toBe('{"numStartups": 3,')
    expect((await readClaudeJson(file)).ok).toBe(false)
  })

  it('takes over a stale lock and never writes under a live one', async () => {
    const file = join(home, '.claude.json')
    await writeFile(file, '{}')
    await mkdir(`${file}.lock`)
    // A live lock (Claude Code refreshes it): the change gives up naming the lock, the file unchanged.
    const held = await updateClaudeJson(file, (config) => ({ config: { ...config, a: 1 }, value: 0 }))
    expect(!held.ok && held.error).toContain(`${file}.lock is held by another program`)
    expect(await readFile(file, 'utf8')).toBe('{}')
    // A lock nobody refreshed for a minute was left by a process that died.
    const old = new Date(Date.now() - 60_000)
    await utimes(`${file}.lock`, old, old)
    expect((await updateClaudeJson(file, (config) => ({ config: { ...config, a: 1 }, value: 0 }))).ok).toBe(
      true,
    )
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ a: 1 })
    await expect(stat(`${file}.lock`)).rejects.toThrow()
  })
})
