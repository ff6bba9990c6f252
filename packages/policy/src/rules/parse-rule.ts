import picomatch from 'picomatch'

/** Which list a rule sits in. Precedence: deny > ask > allow. */
export type RuleKind = 'allow' | 'deny' | 'ask'

/** Where a path pattern is anchored; resolved against the context when matching. */
export type PathBase = 'root' | 'home' | 'project'

/** What a rule's specifier matches. */
export type RuleMatcher =
  /** The bare tool name: every call of that tool (or action kind). */
  | { type: 'any' }
  /** `Bash(npm test:*)`: the command is the prefix or starts with it and a space. */
  | { type: 'bashPrefix'; prefix: string }
  /** `Bash(npm run *)`: `*` matches anything; a trailing ` *` also matches nothing. */
  | { type: 'bashGlob'; regex: RegExp }
  /** `Bash(npm test)`: exactly this command. */
  | { type: 'bashExact'; command: string }
  /** `Read(…)`/`Edit(…)`: gitignore-style path. `anchored: false` matches at any depth. */
  | {
      type: 'path'
      access: 'read' | 'edit'
      base: PathBase
      pattern: string
      anchored: boolean
      test: (rel: string) => boolean
      /** Case-insensitive, for deny and ask rules: `.ENV` is `.env` on macOS and Windows. */
      testNoCase: (rel: string) => boolean
    }
  /** `WebFetch(domain:example.com)`: the host and its subdomains; `*.example.com`: subdomains only. */
  | { type: 'domain'; domain: string }
  /** `mcp__server`, `mcp__server__*`, `mcp__server__tool`; `mcp__*` has server `*` (every server). */
  | { type: 'mcp'; server: string; tool: string | undefined }
  /** `Agent(type)`, `Skill(name)`, `Verify(check)`: the name, `*` for any. */
  | { type: 'name'; name: string }

/** A parsed rule. */
export interface Rule {
  /** The rule as written. */
  text: string
  /** The tool part (`Bash`, `Read`, `mcp__github`, …); `Task` is read as `Agent`. */
  tool: string
  matcher: RuleMatcher
  /** Where it came from (`user settings`, `project settings`, `session`, `turn`, `cli`, …). */
  source: string
}

/** A rule that could not be parsed; it never takes effect. */
export interface RuleError {
  text: string
  source: string
  message: string
}

/** The result of parsing one rule. */
export type ParseRuleResult = { ok: true; rule: Rule } | { ok: false; error: RuleError }

const PATH_TOOLS: Readonly<Record<string, 'read' | 'edit'>> = {
  Read: 'read',
  Edit: 'edit',
  Write: 'edit',
  MultiEdit: 'edit',
  NotebookEdit: 'edit',
}
/** Built-in tools whose rules take a specifier (`Bash(git log *)`, `Read(src/**)`). */
const SPECIFIER_TOOLS = [
  'Bash',
  'Read',
  'Edit',
  'Write',
  'MultiEdit',
  'NotebookEdit',
  'WebFetch',
  'Agent',
  'Skill',
  'Verify',
]
/** Built-in tools whose rules are the bare name. */
const NO_SPECIFIER_TOOLS = [
  'Glob',
  'Grep',
  'WebSearch',
  'TodoWrite',
  'AskUserQuestion',
  'ExitPlanMode',
  'JobOutput',
  'JobKill',
  'ApplyAgentChanges',
  'LSP',
  'ListMcpResources',
  'ReadMcpResource',
  'LoadMcpTools',
]
/** Built-in tool names, so `bash(…)` or `READ(…)` is read as `Bash(…)` and `Read(…)`. */
const KNOWN_TOOLS = [...SPECIFIER_TOOLS, ...NO_SPECIFIER_TOOLS]
const CANONICAL: ReadonlyMap<string, string> = new Map([
  ...KNOWN_TOOLS.map((name) => [name.toLowerCase(), name] as const),
  ['task', 'Agent'],
])

/**
 * The canonical spelling of a rule's tool name: built-ins case-insensitively (`task` is `Agent`),
 * an MCP name with a lower-case `mcp__` prefix, any other name as written (matched without case).
 */
export function canonicalToolName(name: string): string {
  const known = CANONICAL.get(name.toLowerCase())
  if (known) return known
  return name.toLowerCase().startsWith('mcp__') ? `mcp__${name.slice(5)}` : name
}

/**
 * The tool an unparseable rule was probably meant for (`Bash(rm -rf` → `Bash`), or undefined when
 * its text names no built-in or MCP tool: then it may have guarded anything.
 */
export function guessRuleTool(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined
  const name = /^\s*([A-Za-z][A-Za-z0-9_-]*)/.exec(text)?.[1]
  if (name === undefined) return undefined
  const canonical = canonicalToolName(name)
  if (CANONICAL.has(canonical.toLowerCase()) || canonical.startsWith('mcp__')) return canonical
  return undefined
}

const NO_SPECIFIER = new Set(NO_SPECIFIER_TOOLS)

/** Parses `Tool` or `Tool(specifier)`; never throws, and an error names what to write instead. */
export function parseRule(text: string, source: string): ParseRuleResult {
  const fail = (message: string): ParseRuleResult => ({ ok: false, error: { text, source, message } })
  if (typeof text !== 'string') return fail('a rule must be a string such as "Bash(npm test:*)"')
  const trimmed = text.trim()
  const match = /^([A-Za-z][A-Za-z0-9_-]*(?:__\*)?)(?:\(([\s\S]*)\))?$/.exec(trimmed)
  if (!match) {
    return fail(`expected "Tool" or "Tool(specifier)", e.g. "Bash(npm test:*)" or "Read(./.env)"`)
  }
  const tool = canonicalToolName(match[1] as string)
  if (tool.endsWith('__*') && !tool.startsWith('mcp__'))
    return fail('only MCP rules end in __*, as in mcp__server__*')
  const specifier = match[2]
  const rule = (matcher: RuleMatcher): ParseRuleResult => ({
    ok: true,
    rule: { text: trimmed, tool, matcher, source },
  })
  if (tool.startsWith('mcp__')) {
    if (specifier !== undefined)
      return fail('MCP rules take no parentheses: write mcp__server or mcp__server__tool')
    const rest = tool.slice(5)
    const split = rest.indexOf('__')
    const server = split < 0 ? rest : rest.slice(0, split)
    const toolName = split < 0 ? undefined : rest.slice(split + 2)
    if (server === '' || toolName === '') return fail('name the server: mcp__server or mcp__server__tool')
    return rule({ type: 'mcp', server, tool: toolName === '*' ? undefined : toolName })
  }
  if (specifier === undefined || specifier.trim() === '*') return rule({ type: 'any' })
  const spec = specifier.trim()
  if (spec === '') return fail(`empty parentheses: write "${tool}" for every call or give a specifier`)
  if (tool === 'Bash') return parseBash(spec, rule, fail)
  const access = PATH_TOOLS[tool]
  if (access) return parsePath(spec, access, rule, fail)
  if (tool === 'WebFetch') {
    const domain = /^domain:([A-Za-z0-9.*-]+?)\.?$/i.exec(spec)?.[1]
    if (!domain || (domain.includes('*') && !/^\*\.[^*]+$/.test(domain))) {
      return fail('WebFetch rules look like WebFetch(domain:example.com) or WebFetch(domain:*.example.com)')
    }
    return rule({ type: 'domain', domain: domain.toLowerCase() })
  }
  if (tool === 'Agent' || tool === 'Skill' || tool === 'Verify') return rule({ type: 'name', name: spec })
  if (NO_SPECIFIER.has(tool)) return fail(`${tool} takes no specifier: write "${tool}"`)
  return fail(
    `${tool} takes no specifier: write "${tool}" (specifiers exist for Bash, Read, Edit, Write, WebFetch, Agent, Skill, Verify)`,
  )
}

function parseBash(
  spec: string,
  rule: (matcher: RuleMatcher) => ParseRuleResult,
  fail: (message: string) => ParseRuleResult,
): ParseRuleResult {
  const collapsed = spec.replace(/\s+/g, ' ')
  if (collapsed.endsWith(':*')) {
    const prefix = collapsed.slice(0, -2).trim()
    if (prefix === '') return fail('write Bash for every command, or a prefix such as Bash(npm test:*)')
    if (prefix.includes('*'))
      return fail('the :* form takes a literal prefix; use the glob form Bash(npm run *) instead')
    return rule({ type: 'bashPrefix', prefix })
  }
  if (collapsed.includes('*')) {
    const parts = collapsed.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    let source = parts.join('.*')
    // `npm run *` also covers `npm run` with no arguments.
    if (source.endsWith(' .*')) source = `${source.slice(0, -3)}(?: .*)?`
    return rule({ type: 'bashGlob', regex: new RegExp(`^${source}$`, 's') })
  }
  return rule({ type: 'bashExact', command: collapsed })
}

function parsePath(
  spec: string,
  access: 'read' | 'edit',
  rule: (matcher: RuleMatcher) => ParseRuleResult,
  fail: (message: string) => ParseRuleResult,
): ParseRuleResult {
  if (spec.includes('\0')) return fail('a path rule cannot contain a NUL character')
  let base: PathBase = 'project'
  let rest = spec
  let anchored = true
  if (rest.startsWith('//')) {
    base = 'root'
    rest = rest.slice(2)
  } else if (rest === '~' || rest.startsWith('~/')) {
    base = 'home'
    rest = rest.slice(2)
  } else if (rest.startsWith('/')) rest = rest.slice(1)
  else if (rest.startsWith('./')) rest = rest.slice(2)
  else anchored = rest.replace(/\/+$/, '').includes('/')
  rest = rest.replace(/\/+$/, '')
  if (rest.split('/').includes('..'))
    return fail('a path rule cannot climb with ..; write an absolute //path instead')
  if (rest === '') rest = '**'
  const pattern = anchored ? rest : `**/${rest}`
  let test: (rel: string) => boolean
  let testNoCase: (rel: string) => boolean
  try {
    // The pattern or anything below it (gitignore: a matched folder covers its contents).
    test = picomatch([pattern, `${pattern}/**`], { dot: true, nonegate: true })
    testNoCase = picomatch([pattern, `${pattern}/**`], { dot: true, nonegate: true, nocase: true })
  } catch {
    return fail('the path pattern is not a valid glob')
  }
  return rule({ type: 'path', access, base, pattern, anchored, test, testNoCase })
}
