export type { FileTracker, PathLocks, ToolCtx, ToolLimits } from './ctx.js'
export { DEFAULT_TOOL_LIMITS } from './ctx.js'
export type {
  AgentPort,
  AgentRunResult,
  AgentSpawnRequest,
  CheckInfo,
  CheckPort,
  InteractionPort,
  JobPort,
  LspPort,
  McpPort,
  Ports,
  SideModelPort,
  SkillPort,
  UserQuestion,
} from './ports.js'
export type { ActionCtx, Tool, ToolError, ToolOutput, ToolResult } from './tool.js'
export { actionFor } from './tool-actions.js'
