import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS, HOOK_EVENTS, parseSettings, SettingsSchema } from '../src/index.js'

describe('settings', () => {
  it('defaults validate against the schema with no warnings', () => {
    expect(parseSettings(structuredClone(DEFAULT_SETTINGS))).toEqual({
      ok: true,
      settings: DEFAULT_SETTINGS,
      warnings: [],
    })
  })

  it('has the spec defaults', () => {
    expect(DEFAULT_SETTINGS.permissions).toEqual({
      mode: 'default',
      allow: [],
      deny: [],
      ask: [],
      additional_directories: [],
      auto_allow_read_only_bash: true,
    })
    expect(DEFAULT_SETTINGS.agents).toEqual({
      max_concurrent: 6,
      max_depth: 2,
      max_turns: 200,
      session_cost_cap_usd: 0,
    })
    expect(DEFAULT_SETTINGS.context).toEqual({
      compact_at_percent: 92,
      keep_recent_tool_results: 8,
      repo_map: true,
      repo_map_chars: 6000,
    })
    expect(DEFAULT_SETTINGS.shell.sandbox).toEqual({
      enabled: false,
      allow_network: false,
      auto_allow: false,
      confine_user_lines: true,
      excluded_commands: [],
      read_paths: [],
      write_paths: [],
    })
    expect(DEFAULT_SETTINGS.compat.claude).toBe(true)
    expect(DEFAULT_SETTINGS.verification.mode).toBe('report')
    expect(DEFAULT_SETTINGS.provider.anthropic).toEqual({
      api_key_env: 'ANTHROPIC_API_KEY',
      cache_control: true,
    })
    expect(DEFAULT_SETTINGS.provider.openrouter.cache_control).toBe(true)
    expect(DEFAULT_SETTINGS.provider.openai.cache_control).toBe(false)
    expect(DEFAULT_SETTINGS.hooks).toEqual({})
    expect(Object.isFrozen(DEFAULT_SETTINGS.agents)).toBe(true)
  })

  it("documents Claude Code's hook timeout defaults (600 s, 30 s for UserPromptSubmit) in the schema", () => {
    const hooks = (
      SettingsSchema.properties.hooks as unknown as {
        properties: Record<
          string,
          { items: { properties: { timeout_secs: { default?: number; description: string } } } }
        >
      }
    ).properties
    expect(Object.keys(hooks)).toEqual([...HOOK_EVENTS])
    // No schema default: the default depends on the event, so the runner applies it.
    const timeout = hooks.PreToolUse?.items.properties.timeout_secs
    expect(timeout?.default).toBeUndefined()
    expect(timeout?.description).toContain('600')
    expect(timeout?.description).toContain('UserPromptSubmit: 30')
  })

  it('accepts a realistic layer as written in TOML', () => {
    const layer = {
      model: {
        name: 'claude-sonnet-4-5',
        fast: 'claude-haiku-4-5',
        context_window: 200000,
        effort: 'high',
        prices: { input: 3, output: 15 },
      },
      provider: {
        openai_chat: { base_url: 'http://127.0.0.1:8000/v1', api_key_env: 'VLLM_KEY', cache_control: false },
      },
      permissions: { mode: 'acceptEdits', allow: ['Bash(npm test:*)'], deny: ['Read(./.env)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', command: './check.sh', timeout_secs: 10 }],
        Stop: [{ command: 'notify' }],
      },
      mcp: {
        servers: {
          fs: { command: 'npx', args: ['server-filesystem', '.'] },
          web: { url: 'http://127.0.0.1:3001/mcp' },
        },
      },
      shell: { sandbox: { enabled: true }, env: { inherit: 'core', set: { CI: '1' } } },
      web: { allowed_private_hosts: ['localhost'] },
      verification: {
        mode: 'strict',
        max_continuations: 2,
        checks: [{ id: 'unit', command: 'pnpm test', kind: 'test' }],
      },
      experimental: { decisions_task_view: 'shadow' },
      journal: { fsync: true },
    }
    expect(parseSettings(layer)).toEqual({ ok: true, settings: layer, warnings: [] })
  })

  it.each([
    [{ context: { compact_at_percent: 40 } }, 'context.compact_at_percent', 'must be >= 50'],
    [{ context: { compact_at_percent: 100 } }, 'context.compact_at_percent', 'must be <= 99'],
    [{ agents: { max_turns: '200' } }, 'agents.max_turns', 'must be integer (got "200")'],
    [
      { permissions: { mode: 'yolo' } },
      'permissions.mode',
      'must be one of: default, acceptEdits, plan, bypass (got "yolo")',
    ],
    [{ permissions: { allow: 'Bash' } }, 'permissions.allow', 'must be array (got "Bash")'],
    [
      { hooks: { PreToolUse: [{ command: 'x', timeout_secs: 0 }] } },
      'hooks.PreToolUse[0].timeout_secs',
      'must be >= 1',
    ],
    [{ hooks: { Stop: [{ matcher: 'x' }] } }, 'hooks.Stop[0].command', 'is required but missing'],
    [
      { verification: { mode: 'always' } },
      'verification.mode',
      'must be one of: off, report, auto, strict (got "always")',
    ],
    [{ mcp: { servers: { fs: { args: 'x' } } } }, 'mcp.servers.fs.args', 'must be array (got "x")'],
    [
      { experimental: { decisions_route: true } },
      'experimental.decisions_route',
      'must be string (got boolean true)',
    ],
  ])('rejects %j naming the key path', (input, path, message) => {
    expect(parseSettings(input)).toEqual({ ok: false, error: { path, message }, warnings: [] })
  })

  it('warns about unknown keys and drops them, without mutating the input', () => {
    const input = {
      foo: 1,
      context: { repo_map: false, repo_mapp: true },
      shell: { sandbox: { enabld: true } },
    }
    const result = parseSettings(input)
    expect(result).toEqual({
      ok: true,
      settings: { context: { repo_map: false }, shell: { sandbox: {} } },
      warnings: [
        { path: 'foo', message: 'is not a known settings field; check the spelling' },
        { path: 'context.repo_mapp', message: 'is not a known field; check the spelling' },
        { path: 'shell.sandbox.enabld', message: 'is not a known field; check the spelling' },
      ],
    })
    expect(input.context.repo_mapp).toBe(true)
  })

  it('normalizes permissions.mode = "bypassPermissions" to bypass', () => {
    const input = { permissions: { mode: 'bypassPermissions' } }
    expect(parseSettings(input)).toEqual({
      ok: true,
      settings: { permissions: { mode: 'bypass' } },
      warnings: [],
    })
    expect(input.permissions.mode).toBe('bypassPermissions')
  })

  it('rejects a non-object file', () => {
    expect(parseSettings([])).toEqual({
      ok: false,
      error: { path: '', message: 'must be object (got an array)' },
      warnings: [],
    })
  })
})
