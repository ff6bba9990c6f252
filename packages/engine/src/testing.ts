export type {
  ParseScriptResult,
  ScriptBlock,
  ScriptedResponse,
  ScriptFault,
  ScriptStep,
} from './model/scripted/script.js'
export { parseScript } from './model/scripted/script.js'
export type { ScriptedClientOptions, ScriptSource } from './model/scripted/scripted-client.js'
export { ScriptedClient } from './model/scripted/scripted-client.js'
export type {
  RecordedRequest,
  ReplayStep,
  ScriptedServer,
  ScriptedServerOptions,
  ServerScript,
  ServerStep,
  WireFormat,
} from './model/scripted/scripted-server.js'
export { startScriptedServer } from './model/scripted/scripted-server.js'
