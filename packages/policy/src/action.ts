/**
 * What a tool call would do, in the terms the policy decides on. Tools map their input to the most
 * specific Action (and stay conservative for malformed input); the policy never sees raw input, so a
 * `Read(./.env)` deny also stops `cat .env`.
 *
 * Paths are absolute as the tool resolved them against the agent's cwd; the policy normalizes them
 * lexically (`..`, `.`, duplicate slashes) before matching.
 */
export type Action =
  /** Reads files or folders (Read, Glob and Grep roots, NotebookRead…). */
  | { type: 'read'; paths: string[] }
  /** Creates, changes or deletes files. */
  | { type: 'write'; paths: string[] }
  /**
   * Runs a shell line; the policy lexes it itself. `check` marks the line as that Verify check's
   * command, so `Verify(<check>)` rules decide it too.
   */
  | { type: 'execute'; command: string; cwd: string; background?: boolean; check?: string }
  /** Fetches a URL (WebFetch). */
  | { type: 'fetch'; url: string }
  /** Searches the web. */
  | { type: 'webSearch'; query: string }
  /** Starts a subagent of a type. */
  | { type: 'startAgent'; agentType: string }
  /**
   * Calls a tool of an MCP server. `readOnly` comes from the server's annotations when it gives them;
   * `resource` marks the built-in resource tools (ListMcpResources, ReadMcpResource), which only read.
   */
  | { type: 'mcpCall'; server: string; tool: string; readOnly?: boolean; resource?: boolean }
  /** Loads a skill; `args` are the arguments it is invoked with (`Skill(deploy *)` rules match them). */
  | { type: 'loadSkill'; name: string; args?: string }
  /**
   * Anything else; `readOnly` says whether it changes state (plan mode refuses it when false).
   * `malformed` says why a tool could not map its input (a non-string path, a missing field): such
   * a call asks in every mode and is refused in plan mode.
   */
  | { type: 'other'; toolName: string; readOnly: boolean; malformed?: string }

/** The `type` tags of actions. */
export type ActionType = Action['type']
