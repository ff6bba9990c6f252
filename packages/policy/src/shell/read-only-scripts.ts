import { options, parseOptions } from './options.js'
import { refused, type TableVerdict } from './read-only-checks.js'
import type { ReadOnlyEntry } from './read-only-entry.js'
import { readSedScript } from './sed-script.js'
import type { ShellWord } from './types.js'

const SED =
  '-n/--quiet/--silent --debug -e/--expression:text -E/-r/--regexp-extended -l/--line-length:num --posix -s/--separate -z/--null-data -u/--unbuffered --sandbox --help --version -i/--in-place?text'
const SED_OPTIONS = options(SED, { refused: '--file --follow-symlinks' })

function wordOf(source: ShellWord, value: string): ShellWord {
  return { value, literal: true, glob: false, tilde: false, ...(source.literal ? {} : { literal: false }) }
}

function checkSed(args: readonly ShellWord[]): TableVerdict {
  const parsed = parseOptions(args, SED_OPTIONS)
  if (parsed.refusal) return refused(parsed.refusal, parsed)
  const scripts = [...(parsed.values.get('-e') ?? [])]
  const files = [...parsed.operands]
  if (scripts.length === 0) {
    const first = files.shift()
    if (!first) return refused('sed without a script')
    scripts.push(first)
  }
  // `-i` rewrites every file operand: a write, needing edit permission whatever rule allowed sed.
  const verdict: TableVerdict = {
    reads: files,
    writes: parsed.seen.has('-i') ? [...files] : [],
    recursive: false,
  }
  for (const script of scripts) {
    if (!script.literal) return refused('the sed script is not a plain string')
    const read = readSedScript(script.value)
    verdict.reads.push(...read.reads.map((file) => wordOf(script, file)))
    verdict.writes.push(...read.writes.map((file) => wordOf(script, file)))
    if (read.refusal) return { ...verdict, refusal: read.refusal }
  }
  return verdict
}

const AWK =
  '-F/--field-separator:text -v/--assign:text -b/--characters-as-bytes -c/--traditional -P/--posix -S/--sandbox -e/--source:text --help --version'
const AWK_OPTIONS = options(AWK, {
  refused:
    '--file --include --load --exec --dump-variables --debug --pretty-print --profile --lint --optimize --re-interval --use-lc-numeric --bignum --non-decimal-data --gen-pot',
  permute: false,
})

/** Words that run commands, write files or load code in awk (POSIX and gawk). */
const AWK_UNSAFE = /system|getline|\||close|fflush|@|\bprint[f]?\b[^;}]*>|>>/

function checkAwk(args: readonly ShellWord[]): TableVerdict {
  const parsed = parseOptions(args, AWK_OPTIONS)
  if (parsed.refusal) return refused(parsed.refusal, parsed)
  const programs = [...(parsed.values.get('-e') ?? [])]
  const files = [...parsed.operands]
  if (programs.length === 0) {
    const first = files.shift()
    if (!first) return refused('awk without a program')
    programs.push(first)
  }
  for (const program of programs) {
    if (!program.literal) return refused('the awk program is not a plain string')
    if (AWK_UNSAFE.test(program.value)) return refused('the awk program may run commands or write files')
  }
  // `name=value` operands are assignments, not files.
  return {
    reads: files.filter((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.value)),
    writes: [],
    recursive: false,
  }
}

const JQ =
  '-n/--null-input -R/--raw-input -s/--slurp -c/--compact-output -r/--raw-output --raw-output0 -j/--join-output -a/--ascii-output -S/--sort-keys -C/--color-output -M/--monochrome-output --tab --indent:num --unbuffered --stream --stream-errors --seq -e/--exit-status -f/--from-file:read -L/--library-path:read -h/--help -V/--version --build-configuration'
const JQ_OPTIONS = options(JQ, { abbreviations: false })

function checkJq(args: readonly ShellWord[]): TableVerdict {
  // `--arg NAME VALUE` and friends take two values; take them out before the generic reader.
  const rest: ShellWord[] = []
  const reads: ShellWord[] = []
  for (let index = 0; index < args.length; index++) {
    const value = (args[index] as ShellWord).value
    if (value === '--args' || value === '--jsonargs') break
    if (['--arg', '--argjson', '--slurpfile', '--rawfile'].includes(value)) {
      const name = args[index + 1]
      const second = args[index + 2]
      if (!name?.literal || !second?.literal) return refused(`${value} takes a name and a plain value`)
      if (value === '--slurpfile' || value === '--rawfile') reads.push(second)
      index += 2
      continue
    }
    rest.push(args[index] as ShellWord)
  }
  const parsed = parseOptions(rest, JQ_OPTIONS)
  if (parsed.refusal) return refused(parsed.refusal, parsed)
  const fromFile = parsed.seen.has('-f')
  const operands = [...parsed.operands]
  const filter = fromFile ? undefined : operands.shift()
  if (filter && (!filter.literal || /\b(import|include)\b/.test(filter.value)))
    return refused('the jq filter is not a plain string without modules')
  return { reads: [...reads, ...parsed.reads, ...operands], writes: [], recursive: false }
}

/** Table entries whose operands are programs the proof reads: sed, awk, jq. */
export const SCRIPT_TOOLS: readonly ReadOnlyEntry[] = [
  {
    names: ['sed'],
    summary:
      'options from the list (no `-f`; `-i` makes its files writes); every script statement is an address plus p, d, D, n, N, P, h, H, g, G, x, z, =, F, l, q, Q, b, t, T, :, {, }, s (flags g p i I m M and numbers) or y; `r`/`R` read a file, `w`/`W`/`s///w` write one (then not read-only); `e`, `s///e` and anything else refuse',
    allowed: SED,
    match: [
      "sed -n '1,20p' a.ts",
      "sed 's/a/b/g' x",
      "sed -n -e '/foo/p' f",
      "sed 's|a|b|2' f",
      "sed '$d' f",
    ],
    notMatch: [
      "sed -i 's/a/b/' x",
      "sed --in 's/a/b/' x",
      "sed --e='1e id' x",
      "sed --expr='w out' x",
      "sed 's/a/b/w out' x",
      "sed 'e ls' x",
      "sed 's/a/b/e' x",
      'sed -f script.sed x',
      "sed '1a text' x",
    ],
    check: checkSed,
  },
  {
    names: ['awk', 'gawk', 'mawk', 'nawk'],
    summary:
      'a literal program without system, getline, pipes, fflush, close, @-directives, `>>` or print redirection; no `-f`',
    allowed: AWK,
    match: ["awk '{print $1}' a.txt", "awk -F: 'NF > 2' x", "awk -v n=1 '{print n}' x"],
    notMatch: [
      'awk \'BEGIN{system("rm x")}\'',
      'awk \'{print > "out"}\' a',
      'awk -f prog.awk a',
      'awk \'{ "date" | getline d }\'',
      "awk --dump-variables '1' a",
      'awk "$PROG" a',
    ],
    check: checkAwk,
  },
  {
    names: ['jq'],
    summary:
      'options from the list; the first operand is the filter (no import/include), the rest are files read',
    allowed: JQ,
    match: ["jq '.name' package.json", 'jq -r .x a.json', 'jq --arg v 1 .x a.json'],
    notMatch: ['jq . a.json > b.json', 'jq \'import "../x" as $x; .\' a', 'jq --bogus . a'],
    check: checkJq,
  },
]
