import { describe, expect, it } from 'vitest'
import * as entry from './index.js'

describe('public surface', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(entry).sort()).toMatchInlineSnapshot(`
      [
        "DEFAULT_TOOL_LIMITS",
        "LSP_OPERATIONS",
        "MAX_GLOB_RESULTS",
        "MAX_WAIT_MS",
        "PageCache",
        "SEARCH_BACKENDS",
        "TOOL_NAMES",
        "WEB_FETCH_DEFAULTS",
        "actionFor",
        "agentTool",
        "applyAgentChangesTool",
        "askUserQuestionTool",
        "bashTool",
        "budgetOutput",
        "builtinTools",
        "createAgentTool",
        "createFileTracker",
        "createGlobTool",
        "createGrepTool",
        "createPathLocks",
        "createSearchBackend",
        "createShellRunner",
        "createWebFetchTool",
        "createWebSearchTool",
        "editTool",
        "exitPlanModeTool",
        "fetchWebText",
        "globTool",
        "grepTool",
        "isToolName",
        "jobKillTool",
        "jobOutputTool",
        "listMcpResourcesTool",
        "lspTool",
        "multiEditTool",
        "notebookEditTool",
        "readMcpResourceTool",
        "readTool",
        "realPathOnDisk",
        "sandboxRequestOf",
        "shapeOutput",
        "skillTool",
        "systemResolver",
        "todoWriteTool",
        "verifyTool",
        "webFetchTool",
        "writeTool",
      ]
    `)
  })
})
