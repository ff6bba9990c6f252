import { describe, expect, it } from 'vitest'
import { parseClaudeLayer } from './claude-layer.js'

const parse = (settings: unknown) =>
  parseClaudeLayer('claudeProject', '/p/.claude/settings.json', JSON.stringify(settings))

describe("Claude Code's sandbox settings (issue 34)", () => {
  it('maps enabled, autoAllowBashIfSandboxed, excludedCommands, allowWrite and denyRead onto [shell.sandbox]', () => {
    const layer = parse({
      permissions: { deny: ['Bash(rm:*)'] },
      sandbox: {
        enabled: true,
        autoAllowBashIfSandboxed: false,
        allowUnsandboxedCommands: false,
        excludedCommands: ['git push:*', 'docker *'],
        network: { allowLocalBinding: true },
        filesystem: { allowWrite: ['~/.npm', '//tmp/build', '/out'], denyRead: ['~/.aws', '//etc/secret'] },
      },
    })
    expect(layer.notices).toEqual([])
    expect(layer.data.shell?.sandbox).toMatchObject({
      enabled: true,
      auto_allow: false,
      excluded_commands: ['git push:*', 'docker *'],
      write_paths: ['~/.npm', '/tmp/build', '/p/.claude/out'],
    })
    expect(layer.data.permissions?.deny).toEqual(['Bash(rm:*)', 'Read(~/.aws)', 'Read(//etc/secret)'])
  })

  it('refuses by name what the sandbox cannot honour: domains, proxies, unix sockets, denyWrite, an escape hatch', () => {
    const layer = parse({
      sandbox: {
        enabled: true,
        allowUnsandboxedCommands: true,
        network: {
          allowedDomains: ['github.com'],
          httpProxyPort: 8080,
          allowUnixSockets: ['/var/run/docker.sock'],
          allowAllUnixSockets: true,
        },
        filesystem: { denyWrite: ['~/x'], allowWrite: ['relative/dir'] },
        enableWeakerNestedSandbox: true,
      },
    })
    const messages = layer.notices.map((notice) => notice.message).join('\n')
    for (const key of [
      'sandbox.allowUnsandboxedCommands',
      'sandbox.network.allowedDomains',
      'sandbox.network.httpProxyPort',
      'sandbox.network.allowUnixSockets',
      'sandbox.network.allowAllUnixSockets',
      'sandbox.filesystem.denyWrite',
      'sandbox.filesystem.allowWrite entry "relative/dir"',
      'sandbox.enableWeakerNestedSandbox',
    ])
      expect(messages).toContain(key)
    expect(layer.notices.every((notice) => notice.severity === 'warning')).toBe(true)
    // What it can honour still applies; nothing it refused widens the view.
    expect(layer.data.shell?.sandbox).toEqual({ enabled: true })
    expect(layer.data.shell?.sandbox?.allow_network).toBeUndefined()
  })
})
