/**
 * The images of an ACP prompt as the engine's attachments. Only models with image input (the
 * catalog's `vision`) get them; for any other model the whole prompt is refused with a message that
 * says what to do, rather than the images being dropped without a word.
 */
import type { ContentBlock } from '@agentclientprotocol/sdk'
import type { SubmitAttachments } from '@z-engine/engine'
import { parseModelRef, resolveModelInfo } from '@z-engine/engine/models'

type MediaType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp'
const MEDIA_TYPES: ReadonlySet<string> = new Set<MediaType>([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
])

/** The prompt's images as attachments, or why they cannot be sent to `modelRef`. */
export function promptImages(
  blocks: readonly ContentBlock[],
  modelRef: string,
): { ok: true; attachments: SubmitAttachments } | { ok: false; error: string } {
  const attachments: SubmitAttachments = []
  for (const [index, block] of blocks.entries()) {
    if (block.type !== 'image') continue
    const mimeType = block.mimeType.toLowerCase()
    if (block.data !== '') {
      if (!MEDIA_TYPES.has(mimeType))
        return {
          ok: false,
          error: `prompt[${index}]: images must be PNG, JPEG, GIF or WebP; this one is ${block.mimeType}.`,
        }
      attachments.push({
        type: 'image',
        source: { type: 'base64', mediaType: mimeType as MediaType, data: block.data },
      })
    } else if (block.uri !== undefined && block.uri !== null && /^https?:\/\//i.test(block.uri)) {
      attachments.push({ type: 'image', source: { type: 'url', url: block.uri } })
    } else {
      return { ok: false, error: `prompt[${index}]: the image has no data and no http(s) uri.` }
    }
  }
  if (attachments.length > 0 && !takesImages(modelRef))
    return {
      ok: false,
      error: `The model ${modelRef} does not take image input: remove the image, or start the agent with a model that has vision (--model, or model.name in settings).`,
    }
  return { ok: true, attachments }
}

function takesImages(modelRef: string): boolean {
  const parsed = parseModelRef(modelRef)
  return resolveModelInfo(parsed.ok ? parsed.ref.model : modelRef).vision
}
