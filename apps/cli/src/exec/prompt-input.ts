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

/** One stream-json input line read: a prompt, nothing (a blank line), or what is wrong with it. */
export type PromptLineResult = { ok: true; prompt: ExecPrompt | undefined } | { ok: false; error: string }

const MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const
type MediaType = (typeof MEDIA_TYPES)[number]

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * Reads one line of `--input-format stream-json`; each line is one turn. Accepted:
 * `{"type":"prompt","text":"…","images":[{"media_type":"image/png","data":"<base64>"}]}`,
 * `{"type":"message","role":"user","content":"…" | [text and image blocks]}`, and Claude Code's
 * `{"type":"user","message":{"role":"user","content":"…" | [blocks]}}`. A blank line is skipped.
 */
export function parseStreamJsonLine(raw: string, lineNumber: number): PromptLineResult {
  const line = raw.trim()
  if (line === '') return { ok: true, prompt: undefined }
  const where = `stdin line ${lineNumber}`
  let value: unknown
  try {
    value = JSON.parse(line)
  } catch (error) {
    return { ok: false, error: `${where} is not valid JSON (${(error as Error).message}).` }
  }
  if (!isRecord(value)) return { ok: false, error: `${where}: expected a JSON object with "type".` }
  const texts: string[] = []
  const images: PromptImage[] = []
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
  } else if (value.type === 'message' || value.type === 'user') {
    // Claude Code wraps the message: {"type":"user","message":{"role":"user","content":…}}.
    const message = value.type === 'user' ? value.message : value
    if (!isRecord(message))
      return { ok: false, error: `${where}: a "user" event needs "message": {"role":"user","content":…}.` }
    if (message.role !== undefined && message.role !== 'user')
      return {
        ok: false,
        error: `${where}: only "role": "user" messages can be sent (got ${JSON.stringify(message.role)}).`,
      }
    const content = message.content
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
    } else return { ok: false, error: `${where}: a message needs "content" (a string or blocks).` }
  } else {
    return {
      ok: false,
      error: `${where}: unknown input event type ${JSON.stringify(value.type)}; use "user", "prompt" or "message".`,
    }
  }
  const text = texts.join('\n\n')
  if (text.trim() === '' && images.length === 0)
    return { ok: false, error: `${where} holds no prompt text or image.` }
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
