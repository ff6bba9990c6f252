export type { GatewayCliIo } from './cli.js'
export { main } from './cli.js'
export type { GatewayConfig, GatewayLimits, RetryPolicy } from './config.js'
export { DEFAULT_LIMITS, DEFAULT_RETRY, gatewayConfig } from './config.js'
export type { RunningGateway, StartGatewayOptions } from './gateway.js'
export { startGateway } from './gateway.js'
export type { SseFeed, SseMessage } from './sse/parse-sse.js'
export { SseDecoder } from './sse/parse-sse.js'
export type { StorageOptions, StorageTarget } from './storage/open.js'
export { openStorage, parseStorageUrl, redactUrl } from './storage/open.js'
export type {
  BackendName,
  ItemPage,
  ItemVisibility,
  ListItemsOptions,
  NewItem,
  PersistResult,
  Storage,
  StoredConversation,
  StoredItem,
  StoredResponse,
  TurnRecord,
} from './storage/types.js'
export type { CreateResponseRequest, Parsed } from './wire/request.js'
export { parseCreateResponse } from './wire/request.js'
