// A grammar of shell lines for the proof fuzzer: commands from the read-only table with option
// spellings (exact, abbreviated, clustered, attached and separate values), payloads that write or
// run the canary program, quotes, expansions, subscripts, heredocs and redirections.
import fc from 'fast-check'
import { READ_ONLY_COMMANDS } from '../../src/index.js'

/** Payloads that run the canary if bash (or the tool) evaluates them. */
const RUNNERS = [
  '$(canary)',
  '`canary`',
  '"$(canary)"',
  "'a[$(canary)]'",
  'a[$(canary)]',
  '$((a[$(canary)]))',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
  '${x:-$(canary)}',
  '<(canary)',
  'canary',
  './canary',
  "'1e canary'",
  "'s/a/b/e'",
  'BEGIN{system("canary")}',
  '\'BEGIN{system("canary")}\'',
  '\'{print | "canary"}\'',
  '"|canary"',
  '--pre=canary',
  '--compress-program=canary',
]
/** Payloads that write if taken as an output file or script. */
const WRITERS = [
  "'w out'",
  "'s/a/b/w out'",
  'out',
  '~/out',
  '/tmp/out',
  '\'{print > "out"}\'',
  '>out',
  '--output=out',
]
const PLAIN = [
  'a.txt',
  'b.txt',
  'dir',
  'p.json',
  '.env',
  '-',
  '1',
  '2',
  'x',
  "'a'",
  '"b"',
  '*',
  '*.txt',
  'HEAD',
  'HEAD~1',
  "'.name'",
  "'1,2p'",
  "'{print $1}'",
  '-n',
  '--',
  '%s',
]

const values = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...PLAIN) },
  { weight: 2, arbitrary: fc.constantFrom(...RUNNERS) },
  { weight: 2, arbitrary: fc.constantFrom(...WRITERS) },
)

interface CommandShape {
  name: string
  shorts: string[]
  longs: string[]
}

const EXTRA_OPTIONS = [
  '-i',
  '-o',
  '-O',
  '-e',
  '-f',
  '-s',
  '-c',
  '-C',
  '-z',
  '-p',
  '-v',
  '--output',
  '--in-place',
  '--set',
  '--compress-program',
  '--files0-from',
  '--open-files-in-pager',
  '--contents',
  '--file',
  '--exec',
  '--pre',
  '-exec',
  '-delete',
  '-fprint',
]

/** Commands the fuzzer calls, with option names taken from the table's allowlists. */
const SHAPES: CommandShape[] = READ_ONLY_COMMANDS.flatMap((entry) => {
  const names = (entry.allowed ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .flatMap((token) => (token.split(/[:?]/)[0] ?? '').split('/'))
  return entry.names
    .filter(
      (name) =>
        !['yes', 'sleep', 'tail', 'cd', 'docker', 'kubectl', 'go', 'cargo', 'npm', 'jobs'].includes(name),
    )
    .map((name) => ({
      name,
      shorts: names.filter((option) => /^-[^-]$/.test(option)),
      longs: names.filter((option) => option.startsWith('--')),
    }))
})

const GIT_SUBS = [
  'status',
  'log',
  'diff',
  'show',
  'grep',
  'blame',
  'config',
  'branch',
  'tag',
  'ls-files',
  'rev-parse',
  'stash',
  'cat-file',
  'shortlog',
]

/** One option as it might be spelled: exact, abbreviated, clustered, with an attached or separate value. */
function optionArb(shape: CommandShape): fc.Arbitrary<string> {
  // Mostly the command's own options (so lines get proven and run), sometimes risky extras.
  const own = optionSpellings(shape.shorts, shape.longs)
  const shorts = [...shape.shorts, ...EXTRA_OPTIONS.filter((option) => /^-[^-]$/.test(option))]
  const longs = [...shape.longs, ...EXTRA_OPTIONS.filter((option) => option.startsWith('--'))]
  const mixed = optionSpellings(shorts, longs)
  return own
    ? fc.oneof({ weight: 3, arbitrary: own }, { weight: 1, arbitrary: mixed ?? own })
    : (mixed ?? fc.constant('--'))
}

function optionSpellings(shorts: string[], longs: string[]): fc.Arbitrary<string> | undefined {
  if (shorts.length === 0 || longs.length === 0) return undefined
  return fc.oneof(
    fc.constantFrom(...shorts),
    fc.tuple(fc.constantFrom(...shorts), fc.constantFrom(...shorts)).map(([a, b]) => `${a}${b.slice(1)}`),
    fc.tuple(fc.constantFrom(...shorts), values).map(([option, value]) => `${option}${value}`),
    fc.tuple(fc.constantFrom(...shorts), values).map(([option, value]) => `${option} ${value}`),
    fc.constantFrom(...longs),
    fc
      .tuple(fc.constantFrom(...longs), fc.nat())
      .map(([option, cut]) => option.slice(0, 3 + (cut % Math.max(1, option.length - 2)))),
    fc
      .tuple(fc.constantFrom(...longs), values, fc.nat())
      .map(
        ([option, value, cut]) => `${option.slice(0, 3 + (cut % Math.max(1, option.length - 2)))}=${value}`,
      ),
    fc.tuple(fc.constantFrom(...longs), values).map(([option, value]) => `${option} ${value}`),
  )
}

const simpleCommand: fc.Arbitrary<string> = fc.constantFrom(...SHAPES).chain((shape) =>
  fc
    .tuple(
      shape.name === 'git' ? fc.constantFrom(...GIT_SUBS).map((sub) => ` ${sub}`) : fc.constant(''),
      fc.array(fc.oneof({ weight: 3, arbitrary: optionArb(shape) }, { weight: 2, arbitrary: values }), {
        maxLength: 4,
      }),
    )
    .map(([sub, words]) => [`${shape.name}${sub}`, ...words].join(' ')),
)

const redirect = fc.constantFrom(
  '',
  '',
  '',
  ' > out',
  ' >> out',
  ' 2>/dev/null',
  ' 2>&1',
  ' >&2',
  ' < a.txt',
  ' &> out',
  ' >| out',
  ' <<< "$(canary)"',
  ' <<< x',
  ' 3<a.txt',
  ' >&out',
  ' 1>&-',
)

const heredoc = fc
  .tuple(
    fc.constantFrom('cat', 'sed -n p', 'wc -l', 'bash', 'grep a'),
    fc.constantFrom('EOF', "'EOF'", '"EOF"', 'E\\\nOF', '\\EOF', 'E"O"F', '-EOF'),
    fc.constantFrom('$(canary)', 'hi', '`canary`', 'a\\', '$((1))', 'canary'),
  )
  .map(([command, delimiter, body]) => {
    const word = delimiter.replace(/['"\\\n]/g, '').replace(/^-/, '')
    const op = delimiter.startsWith('-') ? '<<-' : '<<'
    return `${command} ${op}${delimiter.replace(/^-/, '')}\n${body}\n${word}`
  })

const structured = fc.oneof(
  fc.tuple(simpleCommand, redirect).map(([command, r]) => `${command}${r}`),
  heredoc,
  fc.constantFrom(
    "[[ 'a[$(canary)]' -eq 1 ]]",
    "test -v 'a[$(canary)]'",
    "[ -v 'a[$(canary)]' ]",
    "printf -v 'a[$(canary)]' %s 1",
    'echo $((x[$(canary)]))',
    'x=.env; cat $x',
    'git -c core.fsmonitor=canary status',
    'git --git-dir=.git -c core.pager=canary log',
    "bash -c 'canary'",
    'env canary',
    'xargs canary < a.txt',
    'find . -exec canary ;',
    'timeout 1 canary',
  ),
)

const connector = fc.constantFrom(' | ', ' && ', '; ', ' || ', '\n', ' & ')

/** Whole lines: one to three commands joined by operators, optionally wrapped or grouped. */
export const shellLine: fc.Arbitrary<string> = fc
  .tuple(fc.array(fc.tuple(structured, connector), { minLength: 0, maxLength: 2 }), structured, fc.nat(9))
  .map(([pairs, last, wrap]) => {
    const body = `${pairs.map(([command, join]) => `${command}${join}`).join('')}${last}`
    if (wrap === 0) return `( ${body} )`
    if (wrap === 1) return `{ ${body}; }`
    if (wrap === 2) return `if true; then ${body}; fi`
    return body
  })

const SNIPPETS = [
  '$(',
  '`',
  "'",
  '"',
  '\\',
  '\\\n',
  '<<',
  '>',
  '|',
  '&&',
  ';',
  '(',
  ')',
  '{',
  '}',
  '$((',
  '${',
  '[',
  ']',
  '*',
  '~',
  '#',
  '=',
  '-',
  '--',
  ' ',
]

/** Grammar lines with a few random characters spliced in (spellings the grammar does not know). */
export const mutatedLine: fc.Arbitrary<string> = fc
  .tuple(shellLine, fc.array(fc.tuple(fc.nat(), fc.constantFrom(...SNIPPETS)), { maxLength: 2 }))
  .map(([line, edits]) =>
    edits.reduce((text, [at, snippet]) => {
      const index = at % (text.length + 1)
      return text.slice(0, index) + snippet + text.slice(index)
    }, line),
  )

/** The fuzzer's lines: mostly grammar, some mutated. */
export const fuzzLine: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: shellLine },
  { weight: 1, arbitrary: mutatedLine },
)
