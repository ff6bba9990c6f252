import { NodeHtmlMarkdown } from 'node-html-markdown'
import { type HTMLElement, type Node, NodeType, parse } from 'node-html-parser'

/** A page converted for the model: its title (when it has one) and its main content as markdown. */
export interface ConvertedPage {
  title?: string
  markdown: string
}

// Elements that never carry reading content: scripts, styling, embedded apps and form chrome.
const NOISE = [
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'canvas',
  'iframe',
  'object',
  'embed',
  'form',
  'button',
  'input',
  'select',
  'textarea',
  'dialog',
  'link',
  'meta',
]

// Site chrome repeated on every page; dropped only when the page marks its main content, so a page
// made of nothing but a <nav> still converts to something.
const CHROME = [
  'nav',
  'header',
  'footer',
  'aside',
  '[role=navigation]',
  '[role=banner]',
  '[role=contentinfo]',
]

// Text a page must keep without its chrome for the chrome to be dropped when no main is marked.
const MIN_CONTENT_CHARS = 200

const converter = new NodeHtmlMarkdown({
  codeBlockStyle: 'fenced',
  bulletMarker: '-',
  emDelimiter: '*',
  maxConsecutiveNewlines: 2,
  // Inline images as data: URIs can be a megabyte each and say nothing to a model.
  keepDataImages: false,
})

/**
 * Converts an HTML document to markdown for a model: keeps the main content (`<main>`,
 * `[role=main]` or a lone `<article>` when the page marks one), drops scripts, styles and site
 * chrome, and makes links and images absolute against `baseUrl` so the model can fetch them next.
 */
export function htmlToMarkdown(html: string, baseUrl?: string): ConvertedPage {
  // `pre` is parsed (not kept as raw text) so its code element and final newline can be handled.
  const root = parse(html, {
    comment: false,
    blockTextElements: { script: true, noscript: true, style: true },
  })
  const title = root.querySelector('title')?.text.trim().replace(/\s+/g, ' ') || undefined
  for (const element of root.querySelectorAll(NOISE.join(','))) element.remove()
  for (const element of root.querySelectorAll('[hidden],[aria-hidden=true]')) element.remove()
  const main = mainContent(root)
  const content = main ?? root.querySelector('body') ?? root
  // Site chrome goes when the page marks its main content, or when enough text remains without it
  // (a page that is mostly navigation keeps its navigation).
  const chrome = content
    .querySelectorAll(CHROME.join(','))
    // Headers inside an article hold its heading and byline; keep those.
    .filter((element) => !(element.tagName === 'HEADER' && element.closest('article') !== null))
  const chromeChars = chrome.reduce((sum, element) => sum + element.text.trim().length, 0)
  if (main !== undefined || content.text.trim().length - chromeChars >= MIN_CONTENT_CHARS) {
    for (const element of chrome) element.remove()
  }
  // Permalink anchors next to headings ("¶", "#") are noise once the heading is text.
  for (const anchor of content.querySelectorAll('a[href^="#"]')) {
    if (/^[\s¶#§🔗]*$/u.test(anchor.text)) anchor.remove()
  }
  normalizeWhitespace(content, false)
  if (baseUrl !== undefined) absolutize(content, baseUrl)
  const markdown = tidy(converter.translate(content.toString()))
  return title === undefined ? { markdown } : { title, markdown }
}

/**
 * Collapses source-formatting whitespace outside `<pre>` to single spaces (the converter drops a
 * line break between an inline element and the next word), and drops a code block's final newline.
 */
function normalizeWhitespace(node: Node, inPre: boolean): void {
  if (node.nodeType === NodeType.TEXT_NODE) {
    if (!inPre) node.rawText = node.rawText.replace(/\s+/g, ' ')
    return
  }
  const isPre = node.nodeType === NodeType.ELEMENT_NODE && (node as HTMLElement).tagName === 'PRE'
  for (const child of node.childNodes) normalizeWhitespace(child, inPre || isPre)
  if (isPre) {
    const last = lastText(node)
    if (last !== undefined) last.rawText = last.rawText.replace(/\n+$/, '')
  }
}

function lastText(node: Node): Node | undefined {
  for (let index = node.childNodes.length - 1; index >= 0; index -= 1) {
    const child = node.childNodes[index]!
    if (child.nodeType === NodeType.TEXT_NODE) return child
    const found = lastText(child)
    if (found !== undefined) return found
  }
  return undefined
}

function mainContent(root: HTMLElement): HTMLElement | undefined {
  const main = root.querySelector('main') ?? root.querySelector('[role=main]')
  if (main !== null) return main
  const articles = root.querySelectorAll('article')
  return articles.length === 1 ? articles[0] : undefined
}

function absolutize(content: HTMLElement, baseUrl: string): void {
  for (const [selector, attribute] of [
    ['a[href]', 'href'],
    ['img[src]', 'src'],
  ] as const) {
    for (const element of content.querySelectorAll(selector)) {
      const value = element.getAttribute(attribute)
      if (value === undefined || value.startsWith('#') || value.startsWith('data:')) continue
      const absolute = resolveUrl(value, baseUrl)
      if (absolute === undefined) {
        element.removeAttribute(attribute)
      } else {
        element.setAttribute(attribute, absolute)
      }
    }
  }
}

function resolveUrl(value: string, baseUrl: string): string | undefined {
  try {
    const url = new URL(value, baseUrl)
    // `javascript:` and friends are not links a model can follow.
    return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:'
      ? url.href
      : undefined
  } catch {
    return undefined
  }
}

function tidy(markdown: string): string {
  return markdown
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''))
    .join('\n')
    .trim()
}
