import { estimateMessageTokens, SKILL_TOOL_NAME, SUMMARY_LABEL } from '@z-engine/context'
import type { Message, TaskView } from '@z-engine/protocol'

/** The working set must hold at least this many estimated tokens before a task view is considered. */
export const TASK_VIEW_MIN_TOKENS = 12_000
/** The latest exchanges always stay (the model's own recent work). */
export const TASK_VIEW_KEEP_LATEST = 2
/** Fewer earlier exchanges than this to choose from: not worth a cache break. */
export const TASK_VIEW_MIN_CANDIDATES = 2
/** At most this many (the latest) earlier exchanges are offered; older ones stay (nothing leaves undecided). */
export const TASK_VIEW_MAX_CANDIDATES = 80
/** Marks the index message a task view puts first (how a later view or a restore recognizes it). */
export const TASK_VIEW_LABEL = '[Task view]'

const INDEX_START = `<system-reminder>\n${TASK_VIEW_LABEL}`
const EXCERPT_CHARS = 200

/**
 * One exchange of the working set: a user message that opens it (no tool results) and everything up
 * to the next such message. No tool call is ever apart from its result: a boundary never falls
 * while a call waits for its result, so keeping or leaving out whole exchanges keeps pairs together.
 */
export interface Exchange {
  /** The id of its first message (what the decision model names). */
  id: string
  messages: readonly Message[]
  tokens: number
  /** Why it always stays, when it does. */
  pinned?: 'latest' | 'summary' | 'skill' | 'unoffered'
}

/** Where a task view could cut the working set, or why it is not worth one. */
export type TaskViewPlan =
  | {
      kind: 'plan'
      exchanges: readonly Exchange[]
      /** Earlier exchanges the decision model may leave out, oldest first. */
      candidates: readonly Exchange[]
      /** Lines of the index of the view in use (carried into the next one). */
      carried: readonly string[]
      messageCount: number
      tokens: number
    }
  | { kind: 'skip'; reason: string }

/** Whether `message` is the index message of a task view. */
export function isTaskViewIndex(message: Message | undefined): boolean {
  const first = message?.content[0]
  return message?.role === 'user' && first?.type === 'text' && first.text.startsWith(INDEX_START)
}

/**
 * Splits the working set into exchanges and picks the candidates (spec 000 "Decision seams", task
 * views). Always kept, like a compaction keeps them: the latest {@link TASK_VIEW_KEEP_LATEST}
 * exchanges, a summary of earlier compaction, and exchanges that loaded a skill; also those older
 * than the {@link TASK_VIEW_MAX_CANDIDATES} offered (the prompt stays small). The index of a
 * view in use is neither: its lines are carried into the next index. Pure.
 */
export function planTaskView(messages: readonly Message[]): TaskViewPlan {
  let tokens = 0
  for (const message of messages) tokens += estimateMessageTokens(message)
  if (tokens < TASK_VIEW_MIN_TOKENS)
    return { kind: 'skip', reason: `the working set is ${tokens} tokens (< ${TASK_VIEW_MIN_TOKENS})` }
  const exchanges = splitExchanges(messages)
  const carried: string[] = []
  const earlier: Exchange[] = []
  const latest = new Set(
    exchanges.filter((exchange) => !isTaskViewIndex(exchange.messages[0])).slice(-TASK_VIEW_KEEP_LATEST),
  )
  for (const exchange of exchanges) {
    if (latest.has(exchange)) exchange.pinned = 'latest'
    else if (exchange.messages.some(isSummary)) exchange.pinned = 'summary'
    else if (exchange.messages.some(loadsSkill)) exchange.pinned = 'skill'
    if (isTaskViewIndex(exchange.messages[0])) carried.push(...indexLines(exchange.messages[0]!))
    else if (exchange.pinned === undefined) earlier.push(exchange)
  }
  for (const exchange of earlier.splice(0, Math.max(0, earlier.length - TASK_VIEW_MAX_CANDIDATES)))
    exchange.pinned = 'unoffered'
  if (earlier.length < TASK_VIEW_MIN_CANDIDATES)
    return { kind: 'skip', reason: `${earlier.length} earlier exchange(s) to choose from` }
  return { kind: 'plan', exchanges, candidates: earlier, carried, messageCount: messages.length, tokens }
}

/**
 * The task view that keeps the pinned exchanges and `keep` (ids of candidates), with an index of
 * what it leaves out. Undefined when `keep` names anything but candidates (strict: odd advice
 * abstains) or leaves nothing out.
 */
export function buildTaskView(
  plan: Extract<TaskViewPlan, { kind: 'plan' }>,
  keep: readonly string[],
  ids: { viewId: string; indexId: string },
): TaskView | undefined {
  const candidateIds = new Set(plan.candidates.map((exchange) => exchange.id))
  if (keep.some((id) => !candidateIds.has(id))) return undefined
  const kept = new Set(keep)
  const dropped = plan.candidates.filter((exchange) => !kept.has(exchange.id))
  if (dropped.length === 0) return undefined
  const keptMessageIds = plan.exchanges
    .filter((exchange) => !isTaskViewIndex(exchange.messages[0]))
    .filter((exchange) => exchange.pinned !== undefined || kept.has(exchange.id))
    .flatMap((exchange) => exchange.messages.map((message) => message.id))
  const lines = [...plan.carried, ...dropped.map(indexLine)]
  const text = [
    INDEX_START,
    `To keep this request on the new task, ${lines.length} earlier exchange(s) of this conversation are left out here. They are still in the session's history: if the task needs one, say so, and the user can bring the full history back with /full-history.`,
    'Left out:',
    ...lines,
    '</system-reminder>',
  ].join('\n')
  return {
    id: ids.viewId,
    keptMessageIds,
    restored: false,
    indexMessage: { id: ids.indexId, role: 'user', content: [{ type: 'text', text }] },
  }
}

/** The working set a view keeps: its index message, then the kept messages in order (as replay does). */
export function applyTaskView(messages: readonly Message[], view: TaskView): Message[] {
  const byId = new Map(messages.map((message) => [message.id, message]))
  const kept = view.keptMessageIds.flatMap((id) => {
    const message = byId.get(id)
    return message === undefined ? [] : [message]
  })
  return view.indexMessage !== undefined ? [view.indexMessage, ...kept] : kept
}

/** What the decision model is shown of one exchange: shortened, with its id. */
export function exchangeDigest(exchange: Exchange): {
  id: string
  prompt: string
  tools: string[]
  answer: string
  tokens: number
} {
  const tools = new Set<string>()
  let answer = ''
  for (const message of exchange.messages) {
    for (const block of message.content) if (block.type === 'tool_use') tools.add(block.name)
    if (message.role === 'assistant') {
      const text = textOf(message)
      if (text !== '') answer = text
    }
  }
  return {
    id: exchange.id,
    prompt: excerpt(promptOf(exchange)),
    tools: [...tools].slice(0, 10),
    answer: excerpt(answer),
    tokens: exchange.tokens,
  }
}

function splitExchanges(messages: readonly Message[]): Exchange[] {
  const exchanges: Exchange[] = []
  const waiting = new Set<string>()
  let current: Message[] = []
  const close = () => {
    if (current.length === 0) return
    let tokens = 0
    for (const message of current) tokens += estimateMessageTokens(message)
    exchanges.push({ id: current[0]!.id, messages: current, tokens })
    current = []
  }
  for (const message of messages) {
    const opens = message.role === 'user' && !message.content.some((block) => block.type === 'tool_result')
    // An index message stands alone, so it can be folded into the next index without its neighbours.
    if ((opens && waiting.size === 0) || isTaskViewIndex(message) || isTaskViewIndex(current[0])) close()
    current.push(message)
    for (const block of message.content) {
      if (block.type === 'tool_use') waiting.add(block.id)
      else if (block.type === 'tool_result') waiting.delete(block.toolUseId)
    }
  }
  close()
  return exchanges
}

function indexLines(message: Message): string[] {
  return textOf(message)
    .split('\n')
    .filter((line) => line.startsWith('- '))
}

function indexLine(exchange: Exchange): string {
  const digest = exchangeDigest(exchange)
  const tools = digest.tools.length > 0 ? ` (tools: ${digest.tools.join(', ')})` : ''
  return `- ${JSON.stringify(excerpt(digest.prompt, 120))}${tools}`
}

function promptOf(exchange: Exchange): string {
  const first = exchange.messages[0]
  if (first === undefined || first.role !== 'user') return ''
  return first.content
    .flatMap((block) =>
      block.type === 'text' && !block.text.startsWith('<system-reminder>') ? [block.text] : [],
    )
    .join('\n')
}

function textOf(message: Message): string {
  return message.content
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n')
    .trim()
}

function excerpt(text: string, max = EXCERPT_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length <= max ? flat : `${flat.slice(0, max)}…`
}

function isSummary(message: Message): boolean {
  return message.content.some((block) => block.type === 'text' && block.text.startsWith(SUMMARY_LABEL))
}

function loadsSkill(message: Message): boolean {
  return message.content.some((block) => block.type === 'tool_use' && block.name === SKILL_TOOL_NAME)
}
