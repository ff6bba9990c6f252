import type { ImageSource } from '@z-engine/protocol'

/** An image attached to the prompt. */
export interface PromptImage {
  type: 'image'
  source: ImageSource
}

/** The prompt `exec` submits: text plus optional images. */
export interface ExecPrompt {
  text: string
  images: PromptImage[]
}

/** The result of reading stream-json input; never throws. */
export type PromptInputResult = { ok: true; prompt: ExecPrompt } | { ok: false; error: string }

const MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const
type MediaType = (typeof MEDIA_TYPES)[number]

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Reads `--input-format stream-json`: one JSON object per line, each
 * `{"type":"prompt","text":"…","images":[{"media_type":"image/png","data":"<base64>"}]}` or
 * `{"type":"message","role":"user","content":"…" | [text and image blocks]}`. Every line's text is
 * joined (blank line between) into one prompt; images are attached in order.
 */
export function parseStreamJsonInput(input: string): PromptInputResult {
  const texts: string[] = []
  const images: PromptImage[] = []
  const lines = input.split('\n')
  for (let index = 0; index < lines.length; index++) {
    const line = (lines[index] ?? '').trim()
    if (line === '') continue
    const where = `stdin line ${index + 1}`
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      return { ok: false, error: `${where} is not valid JSON (${(error as Error).message}).` }
    }
    if (!isRecord(value)) return { ok: false, error: `${where}: expected a JSON object with "type".` }
    if (value.type === 'prompt') {
      if (typeof value.text !== 'string')
        return { ok: false, error: `${where}: a "prompt" event needs "text" (a string).` }
      texts.push(value.text)
      const list = value.images ?? []
      if (!Array.isArray(list)) return { ok: false, error: `${where}: "images" must be an array.` }
      for (const [n, image] of list.entries()) {
        const parsed = imageOf(image, `${where}: images[${n}]`)
        if (typeof parsed === 'string') return { ok: false, error: parsed }
        images.push(parsed)
      }
    } else if (value.type === 'message') {
      if (value.role !== undefined && value.role !== 'user')
        return {
          ok: false,
          error: `${where}: only "role": "user" messages can be sent (got ${JSON.stringify(value.role)}).`,
        }
      const content = value.content
      if (typeof content === 'string') texts.push(content)
      else if (Array.isArray(content)) {
        for (const [n, block] of content.entries()) {
          const at = `${where}: content[${n}]`
          if (!isRecord(block)) return { ok: false, error: `${at}: expected a text or image block.` }
          if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text)
          else if (block.type === 'image') {
            const parsed = imageOf(block, at)
            if (typeof parsed === 'string') return { ok: false, error: parsed }
            images.push(parsed)
          } else return { ok: false, error: `${at}: expected {"type":"text","text":…} or an image block.` }
        }
      } else return { ok: false, error: `${where}: a "message" event needs "content" (a string or blocks).` }
    } else {
      return {
        ok: false,
        error: `${where}: unknown input event type ${JSON.stringify(value.type)}; use "prompt" or "message".`,
      }
    }
  }
  const text = texts.join('\n\n')
  if (text.trim() === '' && images.length === 0)
    return {
      ok: false,
      error: 'The stream-json input holds no prompt text; send a {"type":"prompt","text":"…"} line.',
    }
  return { ok: true, prompt: { text, images } }
}

/** Accepts `{media_type|mediaType, data}` or `{source: {type: "base64", media_type|mediaType, data}}`. */
function imageOf(value: unknown, where: string): PromptImage | string {
  if (!isRecord(value)) return `${where}: expected an object with "media_type" and base64 "data".`
  const source = isRecord(value.source) ? value.source : value
  const mediaType = source.media_type ?? source.mediaType
  const data = source.data
  if (typeof mediaType !== 'string' || !MEDIA_TYPES.includes(mediaType as MediaType))
    return `${where}: "media_type" must be one of ${MEDIA_TYPES.join(', ')}.`
  if (typeof data !== 'string' || data === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(data.replace(/\s+/g, '')))
    return `${where}: "data" must be the image bytes in base64.`
  return {
    type: 'image',
    source: { type: 'base64', mediaType: mediaType as MediaType, data: data.replace(/\s+/g, '') },
  }
}

/** Reads a whole stream as UTF-8. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = ''
  for await (const chunk of stream)
    text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8')
  return text
}
