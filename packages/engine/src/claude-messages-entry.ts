/**
 * @z-engine/engine/claude-messages: engine events as Claude Agent SDK messages, for `claude -p`-compatible stream-json output. For the repository's own apps (the CLI, the gateway); unstable: names
 * and shapes may change between minor versions. An embedder uses `@z-engine/engine`.
 */

/** The Claude Agent SDK's (and `claude -p` stream-json's) init message. */
export { sdkInitMessage } from './claude-agent-sdk/sdk-init.js'
/** The Claude Agent SDK message shapes `MessageTranslator` produces. */
export type { SDKMessage, SDKResultMessage } from './claude-agent-sdk/sdk-message-types.js'
/** Engine events as Claude Agent SDK messages (assistant, user, stream_event, result), and the usage spelling. */
export { MessageTranslator, sdkUsage } from './claude-agent-sdk/sdk-messages.js'
