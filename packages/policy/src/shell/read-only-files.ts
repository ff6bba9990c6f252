import { entry } from './read-only-checks.js'
import type { ReadOnlyEntry } from './read-only-entry.js'

const LS =
  '-a/--all -A/--almost-all --author -b/--escape --block-size:text -B/--ignore-backups -c -C --color?always|auto|never|yes|no|force|tty|if-tty|none -d/--directory -D/--dired -f -F --classify?always|auto|never --file-type --format:across|commas|horizontal|long|single-column|verbose|vertical --full-time -g --group-directories-first -G/--no-group -h/--human-readable --si -H/--dereference-command-line --dereference-command-line-symlink-to-dir --hide:text --hyperlink?always|auto|never -i/--inode -I/--ignore:text -k/--kibibytes -l -L/--dereference -m -n/--numeric-uid-gid -N/--literal -o -p --indicator-style:none|slash|file-type|classify -q/--hide-control-chars --show-control-chars -Q/--quote-name --quoting-style:literal|locale|shell|shell-always|shell-escape|shell-escape-always|c|escape -r/--reverse -R/--recursive -s/--size -S --sort:none|size|time|version|extension|width -t --time:atime|access|use|ctime|status|mtime|modification|birth|creation -T/--tabsize:num --time-style:text -u -U -v -w/--width:num -x -X -Z/--context -1 --zero --help --version'
const GREP =
  '-E/--extended-regexp -F/--fixed-strings -G/--basic-regexp -P/--perl-regexp -e/--regexp:text -f/--file:read -i/-y/--ignore-case --no-ignore-case -w/--word-regexp -x/--line-regexp -z/--null-data -s/--no-messages -v/--invert-match -V/--version --help -m/--max-count:num -b/--byte-offset -n/--line-number --line-buffered -H/--with-filename -h/--no-filename --label:text -o/--only-matching -q/--quiet/--silent --binary-files:binary|text|without-match -a/--text -I -d/--directories:read|skip|recurse -D/--devices:read|skip -r/--recursive -R/--dereference-recursive --include:text --exclude:text --exclude-from:read --exclude-dir:text -L/--files-without-match -l/--files-with-matches -c/--count -T/--initial-tab -Z/--null -A/--after-context:num -B/--before-context:num -C/--context:num --group-separator:text --no-group-separator --color/--colour?always|never|auto -U/--binary'
const RG =
  '-e/--regexp:text -f/--file:read -A/--after-context:num -B/--before-context:num -C/--context:num --binary --no-binary --block-buffered --line-buffered -b/--byte-offset -s/--case-sensitive --color:never|auto|always|ansi --colors:text --column --no-column -c/--count --count-matches --crlf --no-crlf --dfa-size-limit:text -E/--encoding:text --engine:default|pcre2|auto -F/--fixed-strings --no-fixed-strings -L/--follow --no-follow -g/--glob:text --glob-case-insensitive --heading --no-heading -./--hidden --no-hidden --iglob:text -i/--ignore-case --ignore-file:read --ignore-file-case-insensitive --include-zero -v/--invert-match --json --no-json -l/--files-with-matches --files-without-match --files -n/--line-number -N/--no-line-number -x/--line-regexp -M/--max-columns:num --max-columns-preview -m/--max-count:num -d/--max-depth/--maxdepth:num --max-filesize:text --mmap --no-mmap -U/--multiline --no-multiline --multiline-dotall --no-config --no-ignore --no-ignore-dot --no-ignore-exclude --no-ignore-files --no-ignore-global --no-ignore-parent --no-ignore-vcs --no-messages --no-require-git -0/--null --null-data --one-file-system -o/--only-matching --passthru/--passthrough -P/--pcre2 --no-pcre2 -p/--pretty -q/--quiet --regex-size-limit:text -r/--replace:text -S/--smart-case --sort:path|modified|accessed|created|none --sortr:path|modified|accessed|created|none --stats --stop-on-nonmatch -a/--text -j/--threads:num --trim --no-trim --type-list -t/--type:text -T/--type-not:text --type-add:text --type-clear:text -u/--unrestricted -V/--version -w/--word-regexp --vimgrep -H/--with-filename -I/--no-filename --path-separator:text --context-separator:text --no-context-separator --field-context-separator:text --field-match-separator:text -h/--help --no-unicode --unicode --auto-hybrid-regex --no-pcre2-unicode'

/** Table entries for commands that read files (the rest of the table is in read-only-table.ts). */
export const FILE_READERS: readonly ReadOnlyEntry[] = [
  entry(
    ['ls'],
    LS,
    {
      operands: 'files',
      cwdDefault: true,
      recursive: ['-R'],
      anyArgsSafe: true,
      summary: 'only the listed options; operands are folders read (`-R` recursively)',
    },
    ['ls', 'ls -la src', 'ls -R', 'ls -R src', 'ls --sort=time', 'ls --col=never'],
    ['ls > files.txt', 'ls --bogus', 'ls $OPTS', 'ls --hide=*.ts'],
  ),
  entry(
    ['cat'],
    '-A/--show-all -b/--number-nonblank -e -E/--show-ends -n/--number -s/--squeeze-blank -t -T/--show-tabs -u -v/--show-nonprinting --help --version',
    { operands: 'files', anyArgsSafe: true },
    ['cat README.md', 'cat -n a b', 'cat -- -x'],
    ['cat a > b', 'cat a >> b', 'cat -s a | tee b', 'cat $x', 'cat $(echo .env)', 'cat *'],
  ),
  entry(
    ['tac'],
    '-b/--before -r/--regex -s/--separator:text --help --version',
    { operands: 'files', anyArgsSafe: true },
    ['tac log'],
    ['tac log > x'],
  ),
  entry(
    ['nl'],
    '-b/--body-numbering:text -d/--section-delimiter:text -f/--footer-numbering:text -h/--header-numbering:text -i/--line-increment:num -l/--join-blank-lines:num -n/--number-format:ln|rn|rz -p/--no-renumber -s/--number-separator:text -v/--starting-line-number:num -w/--number-width:num --help --version',
    { operands: 'files', anyArgsSafe: true },
    ['nl -ba a.ts'],
    ['nl --bogus a'],
  ),
  entry(
    ['rev'],
    '-0/--zero --help --version',
    { operands: 'files', anyArgsSafe: true },
    ['rev a'],
    ['rev -x a'],
  ),
  entry(
    ['head'],
    '-c/--bytes:num -n/--lines:num -q/--quiet/--silent -v/--verbose -z/--zero-terminated --help --version',
    { operands: 'files', anyArgsSafe: true, settings: { numericShort: true } },
    ['head -n 20 a.ts', 'head -5 x', 'head --lines=3 x'],
    ['head a | tee b', 'head -n $N x', 'head --bogus x'],
  ),
  entry(
    ['tail'],
    '-c/--bytes:num -f --follow?name|descriptor -F -n/--lines:num --max-unchanged-stats:num --pid:num -q/--quiet/--silent --retry -s/--sleep-interval:num -v/--verbose -z/--zero-terminated --help --version',
    { operands: 'files', anyArgsSafe: true, settings: { numericShort: true } },
    ['tail -n 20 log.txt', 'tail -f log.txt', 'tail -3 x'],
    ['tail x > y', 'tail --bogus x'],
  ),
  entry(
    ['wc'],
    '-c/--bytes -m/--chars -l/--lines --files0-from:list -L/--max-line-length -w/--words --total:auto|always|only|never --help --version',
    {
      operands: 'files',
      anyArgsSafe: true,
      summary:
        'only the listed options; operands are files read; `--files0-from` reads files the line does not name',
    },
    ['wc -l src/a.ts', 'wc'],
    ['wc -l a > count', 'wc --bogus'],
  ),
  entry(
    ['grep', 'egrep', 'fgrep'],
    GREP,
    {
      operands: 'patternThenFiles',
      patternOptions: ['-e', '-f'],
      recursive: ['-r', '-R', '--directories'],
      anyArgsSafe: true,
      summary:
        'only the listed options; the first operand is the pattern unless `-e`/`-f`; `-r` reads folders',
    },
    ['grep -rn TODO src', 'grep -e a -e b file', 'grep foo', "grep -rn --include='*.ts' foo src"],
    ['grep foo a > b', 'grep --include=*.ts foo .', 'grep -Z --bogus x'],
  ),
  entry(
    ['rg'],
    RG,
    {
      operands: 'patternThenFiles',
      patternOptions: ['-e', '-f', '--files', '--type-list'],
      recursive: true,
      settings: { abbreviations: false },
      summary:
        'only the listed options (never `--pre`, `--pre-glob`, `--hostname-bin` or `-z`/`--search-zip`, which run programs); always recursive',
    },
    ['rg TODO', 'rg -n -g "*.ts" foo src', 'rg --files', 'rg -n foo'],
    ['rg --pre ./x foo', 'rg --pre=cat foo', 'rg --hostname-bin=./x foo', 'rg -z foo', 'rg --search-zip foo'],
  ),
]
