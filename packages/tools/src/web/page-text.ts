import { htmlToMarkdown } from './html-to-markdown.js'

/** A fetched body as text for the model, or why it can't be. */
export type PageText =
  | { ok: true; kind: 'html' | 'text'; title?: string; text: string }
  | { ok: false; reason: string }

const TEXT_TYPES = new Set([
  'application/json',
  'application/ld+json',
  'application/xml',
  'application/javascript',
  'application/ecmascript',
  'application/x-javascript',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/x-sh',
  'application/graphql',
  'application/sql',
])

/**
 * Turns a response body into text: HTML becomes markdown, text types are decoded as they are, and
 * binary content (images, archives, PDFs, or anything that sniffs as binary) is refused with a
 * message. The charset comes from the Content-Type header, else an HTML `<meta charset>`, else UTF-8.
 */
export function pageText(body: Buffer, contentTypeHeader: string | undefined, url: string): PageText {
  const { mediaType, charset } = parseContentType(contentTypeHeader)
  const sniffedHtml = mediaType === '' && looksLikeHtml(body)
  if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml' || sniffedHtml) {
    const html = decode(body, charset ?? metaCharset(body))
    const page = htmlToMarkdown(html, url)
    return page.title === undefined
      ? { ok: true, kind: 'html', text: page.markdown }
      : { ok: true, kind: 'html', title: page.title, text: page.markdown }
  }
  const textual =
    mediaType.startsWith('text/') ||
    TEXT_TYPES.has(mediaType) ||
    mediaType.endsWith('+json') ||
    mediaType.endsWith('+xml') ||
    ((mediaType === '' || mediaType === 'application/octet-stream') && !looksBinary(body))
  if (!textual) {
    return {
      ok: false,
      reason: `${url} is ${mediaType || 'binary content'}, not a text page; WebFetch reads HTML and text only.`,
    }
  }
  return { ok: true, kind: 'text', text: decode(body, charset) }
}

function parseContentType(header: string | undefined): { mediaType: string; charset?: string } {
  if (header === undefined) return { mediaType: '' }
  const [type = '', ...parameters] = header.split(';')
  const mediaType = type.trim().toLowerCase()
  for (const parameter of parameters) {
    const [key, value] = parameter.split('=')
    if (key?.trim().toLowerCase() === 'charset' && value !== undefined) {
      return { mediaType, charset: value.trim().replace(/^"|"$/g, '') }
    }
  }
  return { mediaType }
}

function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 2048).toString('latin1')
  return /<meta[^>]+charset\s*=\s*["']?([\w-]+)/i.exec(head)?.[1]
}

function decode(body: Buffer, charset: string | undefined): string {
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(body)
  } catch {
    // An unknown label: UTF-8 is the web's default and the best guess.
    return new TextDecoder('utf-8').decode(body)
  }
}

function looksLikeHtml(body: Buffer): boolean {
  const head = body.subarray(0, 512).toString('utf8').trimStart().toLowerCase()
  return head.startsWith('<!doctype html') || head.startsWith('<html')
}

function looksBinary(body: Buffer): boolean {
  return body.subarray(0, 8192).includes(0)
}
