import type { ShellCommand } from './types.js'

/** A simple command with nothing in it yet. */
export function emptyCommand(): ShellCommand {
  return { assignments: [], words: [], redirects: [] }
}

function hasContent(command: ShellCommand): boolean {
  return command.words.length > 0 || command.assignments.length > 0 || command.redirects.length > 0
}

/**
 * The shape of a command list while the lexer reads it: the command being built, the compound
 * commands still open, the operator still waiting for a command. The lexer reads characters; this
 * decides what they mean for the list and reports what is missing or unexpected.
 */
export class CommandList {
  current = emptyCommand()
  /** The words after `for`/`select` up to the body: a header, not a command. */
  header = false
  /** Subshells still open. */
  parens = 0
  /** Compound commands still open (`if` waits for `fi`), innermost last. */
  readonly open: string[] = []
  /** The operator that still needs a command after it (`ls |`, `ls &&`). */
  pendingOperator: string | undefined
  /** The current segment has a command (or a closing keyword) before the next operator. */
  segment = false

  constructor(
    private readonly commands: ShellCommand[],
    private readonly problem: (text: string) => void,
  ) {}

  /** The command being built has no word, assignment or redirection yet. */
  get currentEmpty(): boolean {
    return !hasContent(this.current)
  }

  /** `;`, `&`, `&&`, `|`, `||`, `|&` (binary ones need a command after them). */
  operator(text: string, binary: boolean): void {
    if (!this.segment && this.currentEmpty) this.problem(`a command is missing before '${text}'`)
    this.segment = false
    this.pendingOperator = binary ? text : undefined
  }

  /** Reports an operator still waiting for its command. */
  checkPendingOperator(): void {
    if (this.pendingOperator !== undefined)
      this.problem(`a command is missing after '${this.pendingOperator}'`)
  }

  /** Reports a compound command still open. */
  checkOpen(): void {
    if (this.open.length > 0) this.problem(`'${this.open[this.open.length - 1]}' is missing`)
  }

  /** A reserved word that opens, continues or closes a compound command. */
  keyword(word: string): void {
    const top = this.open[this.open.length - 1]
    switch (word) {
      case 'if':
        this.open.push('fi')
        break
      case 'while':
      case 'until':
        this.open.push('done')
        break
      case 'then':
      case 'elif':
      case 'else':
        if (top !== 'fi') this.problem(`'${word}' outside an if`)
        break
      case 'do':
        if (top !== 'done') this.problem("'do' outside a loop")
        break
      case 'fi':
      case 'done':
      case '}':
        if (top !== word) this.problem(`unexpected '${word}'`)
        else this.open.pop()
        this.segment = true
        this.pendingOperator = undefined
        return
      case '{':
        this.open.push('}')
        break
      default:
        break
    }
    this.segment = false
  }

  /** Ends the command being built: it joins the list unless it is a `for` header or empty. */
  finish(): void {
    const content = hasContent(this.current)
    if (!this.header && content) this.commands.push(this.current)
    if (content || this.header) {
      this.segment = true
      this.pendingOperator = undefined
    }
    this.current = emptyCommand()
    this.header = false
  }
}
