import type { SessionUpdate } from '@agentclientprotocol/sdk'
import { isCommandBody, isReminder } from '../tui/message-text.js'
import { replayedToolTitle, type StoredTranscript } from '../tui/replay-transcript.js'
import { toolKind } from './session-updates.js'

/**
 * A stored conversation as the session updates `session/load` replays to the client: user and
 * agent messages (the user's images included), thoughts, and each tool call with how it ended.
 */
export function transcriptUpdates(items: StoredTranscript): SessionUpdate[] {
  const updates: SessionUpdate[] = []
  for (const item of items) {
    switch (item.kind) {
      case 'message':
        if (item.origin === 'reminder' || item.origin === 'summary') break
        for (const [index, block] of item.message.content.entries()) {
          // A prompt command is stored as typed, then its expanded template for the model: the
          // client replays what the user typed, as the chat does.
          if (block.type === 'text' && item.message.role === 'user' && index > 0 && isCommandBody(block.text))
            continue
          if (block.type === 'text' && block.text !== '' && !isReminder(block.text))
            updates.push({
              sessionUpdate: item.message.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk',
              content: { type: 'text', text: block.text },
            })
          else if (block.type === 'image' && item.message.role === 'user')
            updates.push({
              sessionUpdate: 'user_message_chunk',
              content:
                block.source.type === 'base64'
                  ? { type: 'image', mimeType: block.source.mediaType, data: block.source.data }
                  : { type: 'image', mimeType: 'image/*', data: '', uri: block.source.url },
            })
          else if (block.type === 'thinking' && block.thinking !== '')
            updates.push({
              sessionUpdate: 'agent_thought_chunk',
              content: { type: 'text', text: block.thinking },
            })
        }
        break
      case 'tool': {
        const detail = replayedToolTitle(item.name, item.input)
        updates.push({
          sessionUpdate: 'tool_call',
          toolCallId: item.toolUseId,
          title: detail === item.name ? item.name : `${item.name} ${detail}`,
          kind: toolKind(item.name),
          status: item.status === 'ok' ? 'completed' : 'failed',
          rawInput: item.input,
        })
        break
      }
      case 'turnEnded':
      case 'compaction':
      case 'taskView':
      case 'notice':
        // Bookkeeping of the engine's own; the conversation reads the same without it.
        break
      default: {
        const unreachable: never = item
        throw new Error(`unknown transcript item ${JSON.stringify(unreachable)}`)
      }
    }
  }
  return updates
}
