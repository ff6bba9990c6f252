import { describe, expect, it } from 'vitest'
import * as claudeAgentSdk from './claude-agent-sdk.js'
import * as entry from './index.js'
import * as internal from './internal.js'
import * as projectRoot from './project-root-entry.js'

describe('public surface', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(entry).sort()).toMatchInlineSnapshot(`
      [
        "Engine",
        "EngineError",
        "ToolDefinitionError",
        "createDefaultClientFactory",
        "defineTool",
        "findProjectRoot",
        "run",
      ]
    `)
  })

  it('keeps the internal subpath apart: nothing is exported from both entries', () => {
    const shared = Object.keys(internal).filter((name) => name in entry)
    expect(shared).toEqual([])
  })

  it('offers the CLI and the gateway exactly these internal runtime names (what nothing outside the engine uses is not here)', () => {
    expect(Object.keys(internal).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_MCP_START_TIMEOUT_MS",
        "HOOK_EVENT_TABLE",
        "McpConnection",
        "MessageTranslator",
        "SEARCH_BACKENDS",
        "addMarketplace",
        "buildCommandCatalog",
        "buildRepoMap",
        "checkPermission",
        "checkpointWorkOf",
        "childEnvironmentFor",
        "claudeJsonFile",
        "claudeJsonServers",
        "claudePermissionMode",
        "createSearchBackend",
        "createTrustStore",
        "defaultHookTimeoutSecs",
        "detectShellSandbox",
        "engineRule",
        "expandCommand",
        "fetchWebText",
        "hookPayload",
        "listInstalledPlugins",
        "listMarketplaces",
        "loadAgentDefinitions",
        "loadCommandDefinitions",
        "loadInstructions",
        "loadRules",
        "loadSkillDefinitions",
        "matcherKind",
        "mcpCompletionsOf",
        "modelRefFromSettings",
        "openStandaloneExpansion",
        "parseClaudeLayer",
        "parseMcpJsonLayer",
        "parseMemoryNote",
        "parseModelRef",
        "pluginDefinitionSources",
        "pluginSummaryLines",
        "probeMcpServers",
        "projectGit",
        "projectRulesOf",
        "promptTokensOf",
        "providerSettingsOf",
        "readClaudeJson",
        "removeMarketplace",
        "resolveCommand",
        "resolveModelInfo",
        "resolveServerSpecs",
        "responsesToolChoice",
        "runHooksStandalone",
        "sdkInitMessage",
        "sdkUsage",
        "setPluginEnabled",
        "stagePluginInstall",
        "uninstallPlugin",
        "updateClaudeJson",
        "updateMarketplaces",
        "withClaudeJsonServers",
        "withheldServers",
      ]
    `)
  })

  it('offers the project walk alone on its subpath, the same function as the entry', () => {
    expect(Object.keys(projectRoot)).toEqual(['findProjectRoot', 'workspaceTrustPending'])
    expect(projectRoot.findProjectRoot).toBe(entry.findProjectRoot)
  })

  it('offers the Claude Agent SDK names on its subpath', () => {
    expect(Object.keys(claudeAgentSdk).sort()).toEqual([
      'AbortError',
      'CLAUDE_CODE_VERSION',
      'HOOK_EVENTS',
      'archiveSession',
      'createSdkMcpServer',
      'deleteSession',
      'forkSession',
      'getSessionInfo',
      'getSessionMessages',
      'getSubagentMessages',
      'listSessions',
      'listSubagents',
      'query',
      'renameSession',
      'tagSession',
      'tool',
      'unarchiveSession',
    ])
  })
})
