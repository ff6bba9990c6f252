import { decodeAnsiC } from './ansi-c.js'
import { CommandList, emptyCommand } from './command-list.js'
import {
  BRACE_EXPANSION,
  BRACKET_GLOB,
  META,
  matchingClose,
  NAME_RE,
  PASS_KEYWORDS,
  REDIRECT_OPS,
} from './lex-syntax.js'
import type { ParsedLine, RedirectOp, ShellCommand, ShellRedirect, ShellWord } from './types.js'

/** Lines longer than this are not analyzed at all (never proven read-only). */
export const MAX_SHELL_LINE = 200_000
/** Nesting of substitutions and `sh -c` beyond this is refused rather than recursed into. */
const MAX_DEPTH = 16

interface Shared {
  commands: ShellCommand[]
  problems: string[]
}

interface Heredoc {
  delimiter: string
  stripTabs: boolean
  expands: boolean
  /** Receives the body once it is read. */
  redirect: ShellRedirect
}

/**
 * Lexes a bash line into every simple command it would run, including those inside `$(…)`,
 * backticks, `<(…)`/`>(…)`, subshells, brace groups and unquoted heredoc bodies. Never throws;
 * anything it does not fully understand makes the result incomplete.
 */
export function lexShell(line: string, depth = 0): ParsedLine {
  const shared: Shared = { commands: [], problems: [] }
  if (line.length > MAX_SHELL_LINE) {
    return {
      commands: [],
      complete: false,
      problems: [`the line is longer than ${MAX_SHELL_LINE} characters`],
    }
  }
  if (depth > MAX_DEPTH) return { commands: [], complete: false, problems: ['nesting is too deep'] }
  new Lexer(line, shared, depth).parseList(null)
  return { commands: shared.commands, complete: shared.problems.length === 0, problems: shared.problems }
}

class Lexer {
  pos = 0
  private pending: Heredoc[] = []

  constructor(
    private readonly src: string,
    private readonly shared: Shared,
    private depth: number,
  ) {}

  private problem(text: string): void {
    if (!this.shared.problems.includes(text)) this.shared.problems.push(text)
  }

  private abort(text: string): void {
    this.problem(text)
    this.pos = this.src.length
  }

  /** Parses commands until the end, or until the `)` closing a `$(` when `closer` is `)`. */
  parseList(closer: ')' | null): void {
    const src = this.src
    const list = new CommandList(this.shared.commands, (text) => this.problem(text))
    while (this.pos < src.length) {
      const c = src[this.pos] as string
      const next = src[this.pos + 1]
      if (c === ' ' || c === '\t') {
        this.pos++
      } else if (c === '\\' && next === '\n') {
        this.pos += 2
      } else if (c === '#') {
        while (this.pos < src.length && src[this.pos] !== '\n') this.pos++
      } else if (c === '\n') {
        list.finish()
        // A newline ends a command; after `&&`, `|` or `||` the next line continues the list.
        if (list.pendingOperator === undefined) list.segment = false
        this.pos++
        this.readHeredocs()
      } else if (c === ';') {
        if (next === ';' || next === '&') this.problem('case clauses are not analyzed')
        list.finish()
        list.checkPendingOperator()
        list.operator(';', false)
        this.pos += next === ';' ? 2 : 1
      } else if (c === '&' && next !== '>') {
        list.finish()
        list.checkPendingOperator()
        list.operator(next === '&' ? '&&' : '&', next === '&')
        this.pos += next === '&' ? 2 : 1
      } else if (c === '|') {
        list.finish()
        list.checkPendingOperator()
        const text = next === '|' ? '||' : next === '&' ? '|&' : '|'
        list.operator(text, true)
        this.pos += text.length
      } else if (c === '(') {
        this.openParen(list, next)
      } else if (c === ')') {
        this.pos++
        if (list.parens > 0) {
          list.finish()
          if (!list.segment) this.problem("a command is missing before ')'")
          list.parens--
          list.segment = true
          list.pendingOperator = undefined
        } else if (closer === ')') {
          list.finish()
          list.checkPendingOperator()
          list.checkOpen()
          return
        } else {
          this.problem("unmatched ')'")
        }
      } else if ((c === '<' || c === '>') && next === '(') {
        this.addWord(list.current, this.readWord(), list.header)
      } else if (this.atRedirect()) {
        const redirect = this.readRedirect()
        if (redirect) list.current.redirects.push(redirect)
      } else {
        this.readCommandWord(list)
      }
    }
    if (closer === ')') this.problem('unterminated $(')
    if (list.parens > 0) this.problem("unclosed '('")
    list.finish()
    list.checkPendingOperator()
    list.checkOpen()
    if (this.pending.length > 0) this.problem('unterminated heredoc')
    list.finish()
  }

  /** `(` opens a subshell before a command; after one word it may be a function definition. */
  private openParen(list: CommandList, next: string | undefined): void {
    if (list.currentEmpty) {
      if (next === '(') this.problem('arithmetic commands are not analyzed')
      list.finish()
      list.parens++
      list.segment = false
      list.pendingOperator = undefined
      this.pos++
    } else if (list.current.words.length === 1 && /^\(\s*\)/.test(this.src.slice(this.pos, this.pos + 64))) {
      // `name() { …; }`: drop the name and keep lexing the body as a brace group.
      this.problem('function definitions are not analyzed')
      list.current = emptyCommand()
      this.pos = this.src.indexOf(')', this.pos) + 1
    } else {
      this.problem("unexpected '('")
      this.pos++
    }
  }

  /** A word in command position may be a reserved word, a `for` header or an assignment. */
  private readCommandWord(list: CommandList): void {
    const start = this.pos
    const word = this.readWord()
    const raw = this.src.slice(start, this.pos)
    if (list.current.words.length === 0 && !list.header) {
      const bare = word.literal && raw === word.value
      if (bare && PASS_KEYWORDS.has(raw)) {
        list.keyword(raw)
        return
      }
      if (bare && (raw === 'for' || raw === 'select')) {
        list.open.push('done')
        list.header = true
        return
      }
      if (bare && (raw === 'case' || raw === 'esac' || raw === 'function')) {
        this.problem(`'${raw}' is not analyzed`)
        return
      }
      if (NAME_RE.test(raw)) {
        list.current.assignments.push(word)
        return
      }
    }
    this.addWord(list.current, word, list.header)
  }

  private addWord(command: ShellCommand, word: ShellWord, header: boolean): void {
    if (!header) command.words.push(word)
  }

  private atRedirect(): boolean {
    let index = this.pos
    while (index < this.src.length && /[0-9]/.test(this.src[index] as string)) index++
    const c = this.src[index]
    if (c === '<' || c === '>') return true
    return index === this.pos && c === '&' && this.src[index + 1] === '>'
  }

  private readRedirect(): ShellRedirect | undefined {
    const src = this.src
    let digits = ''
    while (/[0-9]/.test(src[this.pos] ?? '')) digits += src[this.pos++]
    const op = REDIRECT_OPS.find((candidate) => src.startsWith(candidate, this.pos)) as RedirectOp
    this.pos += op.length
    while (src[this.pos] === ' ' || src[this.pos] === '\t') this.pos++
    const c = src[this.pos]
    if (c === undefined || (META.has(c) && !((c === '<' || c === '>') && src[this.pos + 1] === '('))) {
      this.problem(`'${op}' has no target`)
      return undefined
    }
    const start = this.pos
    const target = this.readWord()
    const redirect: ShellRedirect = { op, target }
    if (digits !== '') redirect.fd = Number(digits)
    if (op === '<<' || op === '<<-') {
      // bash joins `\<newline>` before it looks for quotes: `<<E\<newline>ND` is an unquoted END.
      const raw = src.slice(start, this.pos).replace(/\\\n/g, '')
      this.pending.push({
        delimiter: target.value,
        stripTabs: op === '<<-',
        expands: !/['"\\]/.test(raw),
        redirect,
      })
    }
    return redirect
  }

  private readHeredocs(): void {
    const docs = this.pending
    this.pending = []
    for (const doc of docs) {
      const bodyStart = this.pos
      let found = false
      let joined = false
      while (this.pos < this.src.length) {
        let end = this.src.indexOf('\n', this.pos)
        if (end < 0) end = this.src.length
        let text = this.src.slice(this.pos, end)
        if (doc.stripTabs) text = text.replace(/^\t+/, '')
        const lineStart = this.pos
        this.pos = Math.min(end + 1, this.src.length)
        // In an expanding body bash joins a line ending in `\` with the next: that one is no delimiter.
        const continued = joined
        joined = doc.expands && /(^|[^\\])(\\\\)*\\$/.test(text)
        if (!continued && text === doc.delimiter) {
          found = true
          const body = this.src.slice(bodyStart, lineStart)
          doc.redirect.body = doc.stripTabs ? body.replace(/^\t+/gm, '') : body
          if (doc.expands) doc.redirect.expands = true
          if (doc.expands) this.scanExpansions(body)
          break
        }
      }
      if (!found) this.abort('unterminated heredoc')
    }
  }

  /** Collects the commands substituted inside an unquoted heredoc body. */
  private scanExpansions(body: string): void {
    const inner = new Lexer(body, this.shared, this.depth + 1)
    while (inner.pos < body.length) {
      const c = body[inner.pos]
      if (c === '\\') inner.pos += 2
      else if (c === '$' || c === '`') inner.readDollarOrBacktick()
      else inner.pos++
    }
  }

  /** Reads one word; `pos` ends on the first metacharacter after it. */
  readWord(): ShellWord {
    const src = this.src
    const word: ShellWord = { value: '', literal: true, glob: false, tilde: false }
    const start = this.pos
    if (src[this.pos] === '~') {
      const rest = /^~[^/\s;&|()<>'"]*/.exec(src.slice(this.pos, this.pos + 256))?.[0] ?? '~'
      if (rest === '~') word.tilde = true
      else word.literal = false
    }
    while (this.pos < src.length) {
      const c = src[this.pos] as string
      const next = src[this.pos + 1]
      if ((c === '<' || c === '>') && next === '(') {
        if (this.pos !== start) break
        this.pos += 2
        this.nested(() => this.parseList(')'))
        word.value += '/dev/fd/63'
        word.literal = false
        continue
      }
      if (META.has(c)) break
      if (c === '\\') {
        if (next === undefined) {
          this.problem('trailing backslash')
          this.pos++
        } else {
          if (next !== '\n') word.value += next
          this.pos += 2
        }
      } else if (c === "'") {
        const end = src.indexOf("'", this.pos + 1)
        if (end < 0) return this.unterminated(word, 'unterminated single quote')
        word.value += src.slice(this.pos + 1, end)
        this.pos = end + 1
      } else if (c === '$' && next === "'") {
        this.pos += 2
        if (!this.readAnsiC(word)) return this.unterminated(word, "unterminated $'")
      } else if (c === '"' || (c === '$' && next === '"')) {
        this.pos += c === '$' ? 2 : 1
        if (!this.readDouble(word)) return this.unterminated(word, 'unterminated double quote')
      } else if (c === '$' || c === '`') {
        const text = this.readDollarOrBacktick()
        // Only a lone `$` comes back as exactly '$'; anything longer expands.
        if (text !== '$') word.literal = false
        word.value += text
      } else {
        if (c === '*' || c === '?' || (c === '[' && BRACKET_GLOB.test(src.slice(this.pos, this.pos + 256)))) {
          word.glob = true
          word.literal = false
        }
        if (c === '{' && BRACE_EXPANSION.test(src.slice(this.pos, this.pos + 512))) word.literal = false
        word.value += c
        this.pos++
      }
    }
    return word
  }

  private unterminated(word: ShellWord, problem: string): ShellWord {
    this.abort(problem)
    word.literal = false
    return word
  }

  /** Reads `$…` or a backtick substitution at `pos`; returns its best-effort text. */
  readDollarOrBacktick(): string {
    const src = this.src
    const start = this.pos
    if (src[this.pos] === '`') {
      let index = this.pos + 1
      let inner = ''
      while (index < src.length && src[index] !== '`') {
        if (
          src[index] === '\\' &&
          (src[index + 1] === '`' || src[index + 1] === '\\' || src[index + 1] === '$')
        ) {
          inner += src[index + 1]
          index += 2
        } else inner += src[index++]
      }
      if (index >= src.length) {
        this.abort('unterminated backtick')
        return src.slice(start)
      }
      this.pos = index + 1
      this.nested(() => {
        const nested = lexShell(inner, this.depth + 1)
        this.shared.commands.push(...nested.commands)
        for (const problem of nested.problems) this.problem(problem)
      })
      return src.slice(start, this.pos)
    }
    const next = src[this.pos + 1]
    if (next === '(' && src[this.pos + 2] === '(') {
      const end = matchingClose(src, this.pos + 1, '(', ')')
      if (end < 0) {
        this.abort('unterminated $((')
        return src.slice(start)
      }
      const body = src.slice(this.pos + 3, end - 1)
      if (body.includes('$(') || body.includes('`'))
        this.problem('substitution inside arithmetic is not analyzed')
      this.pos = end + 1
      return src.slice(start, this.pos)
    }
    if (next === '(') {
      this.pos += 2
      this.nested(() => this.parseList(')'))
      return src.slice(start, this.pos)
    }
    if (next === '{') {
      const end = matchingClose(src, this.pos + 1, '{', '}')
      if (end < 0) {
        this.abort('unterminated ${')
        return src.slice(start)
      }
      const body = src.slice(this.pos + 2, end)
      if (body.includes('$(') || body.includes('`') || body.includes('<(') || body.includes('>(')) {
        this.problem('substitution inside a parameter expansion is not analyzed')
      }
      this.pos = end + 1
      return src.slice(start, this.pos)
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9@*#?$!-]/.exec(src.slice(this.pos + 1, this.pos + 256))?.[0]
    if (name) {
      this.pos += 1 + name.length
      return src.slice(start, this.pos)
    }
    // A lone `$` is an ordinary character.
    this.pos++
    return '$'
  }

  private nested(run: () => void): void {
    if (this.depth + 1 > MAX_DEPTH) {
      this.abort('nesting is too deep')
      return
    }
    this.depth++
    run()
    this.depth--
  }

  private readDouble(word: ShellWord): boolean {
    const src = this.src
    while (this.pos < src.length) {
      const c = src[this.pos] as string
      const next = src[this.pos + 1]
      if (c === '"') {
        this.pos++
        return true
      }
      if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
        if (next !== '\n') word.value += next
        this.pos += 2
      } else if (c === '$' || c === '`') {
        const text = this.readDollarOrBacktick()
        if (text !== '$') word.literal = false
        word.value += text
      } else {
        word.value += c
        this.pos++
      }
    }
    return false
  }

  private readAnsiC(word: ShellWord): boolean {
    const decoded = decodeAnsiC(this.src, this.pos)
    if (!decoded) return false
    word.value += decoded.value
    this.pos = decoded.end
    return true
  }
}
