export type {
  ParseScriptResult,
  ScriptBlock,
  ScriptedResponse,
  ScriptFault,
  ScriptStep,
} from './testing/script.js'
export { parseScript } from './testing/script.js'
export type { ScriptedClientOptions, ScriptSource } from './testing/scripted-client.js'
export { ScriptedClient } from './testing/scripted-client.js'
export type {
  RecordedRequest,
  ReplayStep,
  ScriptedServer,
  ScriptedServerOptions,
  ServerScript,
  ServerStep,
  WireFormat,
} from './testing/scripted-server.js'
export { startScriptedServer } from './testing/scripted-server.js'
