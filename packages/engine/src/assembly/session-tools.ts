import type { Redactor } from '@z-engine/policy'
import type { Tool } from '@z-engine/tools'
import type { McpManager } from '../mcp/mcp-manager.js'
import type { AssembleInput } from './assemble-input.js'
import { redactingTool } from './redaction.js'
import type { Notify } from './session-notices.js'
import type { ToolServices } from './session-tool-services.js'
import { buildToolset, newPageCache } from './toolset.js'

/**
 * The tools the model is offered: the built-ins and the embedder's tools, then the MCP tools
 * offered so far, each redacting the engine's secrets from what it returns. The list is a new
 * array only when it changed (so the tool list, and the prompt cache, stay stable).
 */
export class SessionTools {
  readonly #build: () => Tool[]
  readonly #mcp: McpManager
  readonly #redactor: Redactor
  #builtin: Tool[]
  #mcpSeen: readonly Tool[] = []
  #tools: Tool[]
  #stale = false

  constructor(input: AssembleInput, tools: ToolServices, redactor: Redactor, notice: Notify) {
    const settings = input.loaded.settings
    const pageCache = newPageCache()
    this.#build = () =>
      buildToolset({ settings, ports: tools.ports, env: input.env, pageCache, onNotice: notice })
        .concat(input.definedTools ?? [])
        .map((tool) => redactingTool(tool, redactor))
    this.#mcp = tools.mcp
    this.#redactor = redactor
    this.#builtin = this.#build()
    this.#tools = this.#builtin
  }

  /** The tools offered now, in order. */
  current(): Tool[] {
    const offered = this.#mcp.tools()
    if (offered !== this.#mcpSeen || this.#stale) {
      this.#stale = false
      this.#mcpSeen = offered
      this.#tools = [...this.#builtin, ...offered.map((tool) => redactingTool(tool, this.#redactor))]
    }
    return this.#tools
  }

  /** Builds the built-ins again (the Skill and Agent tools describe what a reload loaded). */
  rebuild(): void {
    this.#builtin = this.#build()
    this.#stale = true
  }
}
