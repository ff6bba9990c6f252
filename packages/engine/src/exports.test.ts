import { describe, expect, it } from 'vitest'
import * as claudeAgentSdk from './claude-agent-sdk.js'
import * as claudeMessages from './claude-messages-entry.js'
import * as definitions from './definitions-entry.js'
import * as hooks from './hooks-entry.js'
import * as entry from './index.js'
import * as mcp from './mcp-entry.js'
import * as models from './models-entry.js'
import * as plugins from './plugins-entry.js'
import * as projectRoot from './project-root-entry.js'
import * as repository from './repository-entry.js'
import * as sandbox from './sandbox-entry.js'
import * as sessionAccess from './session-access-entry.js'
import * as settings from './settings-entry.js'
import * as web from './web-entry.js'

/** The entries the repository's own apps import (package.json `exports`), by subpath. */
const APP_ENTRIES = {
  './claude-messages': claudeMessages,
  './definitions': definitions,
  './hooks': hooks,
  './mcp': mcp,
  './models': models,
  './plugins': plugins,
  './repository': repository,
  './sandbox': sandbox,
  './session-access': sessionAccess,
  './settings': settings,
  './web': web,
}

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

  it("keeps the apps' entries apart from the embedding entry and from each other: no name is exported twice", () => {
    const seen = new Map<string, string>(Object.keys(entry).map((name) => [name, '.']))
    const twice: string[] = []
    for (const [subpath, names] of Object.entries(APP_ENTRIES))
      for (const name of Object.keys(names)) {
        const first = seen.get(name)
        if (first !== undefined) twice.push(`${name} in ${first} and ${subpath}`)
        seen.set(name, subpath)
      }
    expect(twice).toEqual([])
  })

  it('offers the CLI and the gateway exactly these runtime names, one entry per purpose (what nothing outside the engine uses is not here)', () => {
    const names = Object.fromEntries(
      Object.entries(APP_ENTRIES).map(([subpath, module]) => [subpath, Object.keys(module).sort()]),
    )
    expect(names).toMatchInlineSnapshot(`
      {
        "./claude-messages": [
          "MessageTranslator",
          "sdkInitMessage",
          "sdkUsage",
        ],
        "./definitions": [
          "buildCommandCatalog",
          "expandCommand",
          "loadAgentDefinitions",
          "loadCommandDefinitions",
          "loadInstructions",
          "loadRules",
          "loadSkillDefinitions",
          "openStandaloneExpansion",
          "parseMemoryNote",
          "resolveCommand",
        ],
        "./hooks": [
          "HOOK_EVENT_TABLE",
          "claudePermissionMode",
          "defaultHookTimeoutSecs",
          "hookPayload",
          "matcherKind",
          "runHooksStandalone",
        ],
        "./mcp": [
          "DEFAULT_MCP_START_TIMEOUT_MS",
          "McpConnection",
          "probeMcpServers",
          "resolveServerSpecs",
          "withheldServers",
        ],
        "./models": [
          "modelRefFromSettings",
          "parseModelRef",
          "promptTokensOf",
          "providerSettingsOf",
          "resolveModelInfo",
          "responsesToolChoice",
        ],
        "./plugins": [
          "addMarketplace",
          "listInstalledPlugins",
          "listMarketplaces",
          "pluginDefinitionSources",
          "pluginSummaryLines",
          "removeMarketplace",
          "setPluginEnabled",
          "stagePluginInstall",
          "uninstallPlugin",
          "updateMarketplaces",
        ],
        "./repository": [
          "buildRepoMap",
          "projectGit",
        ],
        "./sandbox": [
          "detectShellSandbox",
        ],
        "./session-access": [
          "checkpointWorkOf",
          "mcpCompletionsOf",
        ],
        "./settings": [
          "checkPermission",
          "childEnvironmentFor",
          "claudeJsonFile",
          "claudeJsonServers",
          "createTrustStore",
          "engineRule",
          "parseClaudeLayer",
          "parseMcpJsonLayer",
          "projectRulesOf",
          "readClaudeJson",
          "updateClaudeJson",
          "withClaudeJsonServers",
        ],
        "./web": [
          "SEARCH_BACKENDS",
          "createSearchBackend",
          "fetchWebText",
        ],
      }
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
