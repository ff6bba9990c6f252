import { describe, expect, it } from 'vitest'
import { lexShell, MAX_SHELL_LINE, unwrapLine } from '../src/index.js'
import { cpuMillis } from './cpu-time.js'
import { bash, context } from './helpers.js'

const names = (line: string): string[] =>
  lexShell(line).commands.map((command) => command.words.map((word) => word.value).join(' '))

describe('lexShell', () => {
  it.each<[string, string[]]>([
    ['a && b || c ; d & e | f |& g', ['a', 'b', 'c', 'd', 'e', 'f', 'g']],
    ['echo $(inner one) `inner two`', ['inner one', 'inner two', 'echo $(inner one) `inner two`']],
    ['diff <(ls a) >(wc)', ['ls a', 'wc', 'diff /dev/fd/63 /dev/fd/63']],
    ['(a; b) && { c; }', ['a', 'b', 'c']],
    ['echo "a b" \'c d\' e\\ f', ['echo a b c d e f']],
    ["echo $'tab\\there'", ['echo tab\there']],
    ['echo a\\\nb', ['echo ab']],
    ['ls # rm -rf /', ['ls']],
    ['cat <<EOF\nline $(x)\nEOF\ny', ['cat', 'x', 'y']],
    ["cat <<'EOF'\n$(x)\nEOF", ['cat']],
    ['cat <<-EOF\n\t$(x)\n\tEOF', ['cat', 'x']],
    ['echo "$(a "$(b)")"', ['b', 'a $(b)', 'echo $(a "$(b)")']],
    ['if a; then b; elif c; then d; else e; fi', ['a', 'b', 'c', 'd', 'e']],
    ['for x in $(a); do b; done', ['a', 'b']],
    ['x=1 y=2 cmd', ['cmd']],
  ])('%j', (line, expected) => {
    expect(names(line)).toEqual(expected)
  })

  it.each([
    "echo 'open",
    'echo "open',
    'echo $(open',
    'echo `open',
    "echo $'open",
    'echo ${open',
    'cat <<EOF\nno end',
    '(a',
    'a)',
    'case x in y) z;; esac',
    'f() { a; }',
    'echo $(( $(id) ))',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell line, not a template
    'echo ${x:-$(id)}',
    'echo \\',
    '>',
  ])('%j is incomplete', (line) => {
    expect(lexShell(line).complete).toBe(false)
    expect(bash(line).decision).not.toBe('allow')
    expect(bash(line, context('plan')).decision).toBe('deny')
  })

  it('records redirections with their descriptors', () => {
    const [command] = lexShell('cmd 2>>err <in >&2 &>all').commands
    expect(command?.redirects.map((r) => [r.op, r.fd, r.target.value])).toEqual([
      ['>>', 2, 'err'],
      ['<', undefined, 'in'],
      ['>&', undefined, '2'],
      ['&>', undefined, 'all'],
    ])
  })

  it('refuses lines beyond the limit and deep nesting without throwing', () => {
    expect(lexShell('a'.repeat(MAX_SHELL_LINE + 1)).complete).toBe(false)
    expect(bash(`ls ${'a'.repeat(MAX_SHELL_LINE)}`).decision).toBe('ask')
    const deep = `${'$('.repeat(200)}ls${')'.repeat(200)}`
    expect(lexShell(deep).complete).toBe(false)
    expect(bash(deep).decision).toBe('ask')
    const backticks = `echo ${'`'.repeat(101)}`
    expect(() => lexShell(backticks)).not.toThrow()
    const nestedShells = `${"sh -c '".repeat(1)}ls'`
    expect(unwrapLine(nestedShells).commands.map((c) => c.words[0]?.value)).toEqual(['ls'])
  })

  it('handles big but legal inputs quickly', () => {
    const line = Array.from({ length: 5000 }, (_, index) => `echo ${index}`).join(' && ')
    let decision = ''
    expect(cpuMillis(() => (decision = bash(line).decision))).toBeLessThan(2000)
    expect(decision).toBe('allow')
    expect(bash(`${line} && rm -rf /`).decision).toBe('ask')
  })
})

describe('malformed actions never allow by accident', () => {
  it.each([
    { type: 'execute', command: '', cwd: '/proj' },
    { type: 'execute', command: '   ', cwd: '/proj' },
    { type: 'execute', command: '\0', cwd: '/proj' },
    { type: 'execute', command: ';;;', cwd: '/proj' },
    { type: 'execute', command: '|', cwd: '/proj' },
    { type: 'execute', command: '&&', cwd: '/proj' },
  ] as const)('%j never throws', (action) => {
    expect(() => bash(action.command)).not.toThrow()
  })
  it('a bare operator line is not proven read-only in plan mode', () => {
    expect(bash('rm', context('plan')).decision).toBe('deny')
    expect(bash('>>', context('plan')).decision).toBe('deny')
  })
})
