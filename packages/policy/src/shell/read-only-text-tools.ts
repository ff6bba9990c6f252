import { entry } from './read-only-checks.js'
import type { ReadOnlyEntry } from './read-only-entry.js'

const files = { operands: 'files', anyArgsSafe: true } as const

/** Table entries for text utilities (sort, cut, diff, od, checksums…), each with its own options. */
export const TEXT_TOOLS: readonly ReadOnlyEntry[] = [
  entry(
    ['sort'],
    '-b/--ignore-leading-blanks -d/--dictionary-order -f/--ignore-case -g/--general-numeric-sort -i/--ignore-nonprinting -M/--month-sort -h/--human-numeric-sort -n/--numeric-sort -R/--random-sort --random-source:read -r/--reverse --sort:general-numeric|human-numeric|month|numeric|random|version -V/--version-sort --batch-size:num -c --check?diagnose-first|quiet|silent -C --debug --files0-from:list -k/--key:text -m/--merge -o/--output:write -s/--stable -S/--buffer-size:num -t/--field-separator:text -T/--temporary-directory:write --parallel:num -u/--unique -z/--zero-terminated --help --version',
    {
      operands: 'files',
      settings: { refused: '--compress-program' },
      summary:
        'only the listed options (never `--compress-program`); `-o` and `-T` name files written; `--files0-from` reads files the line does not name',
    },
    ['sort -u names.txt', 'sort -k2 -t, x', 'sort -rn x'],
    [
      'sort -o out in',
      'sort --output=out in',
      'sort --o=out in',
      'sort --compress-program=sh x',
      'sort --compress=sh x',
    ],
  ),
  entry(
    ['uniq'],
    '-c/--count -d/--repeated -D --all-repeated?none|prepend|separate -f/--skip-fields:num --group?separate|prepend|append|both -i/--ignore-case -s/--skip-chars:num -u/--unique -z/--zero-terminated -w/--check-chars:num --help --version',
    { operands: 'inThenOut', settings: { numericShort: true } },
    ['uniq -c x', 'uniq'],
    ['uniq in out'],
  ),
  entry(
    ['cut'],
    '-b/--bytes:text -c/--characters:text -d/--delimiter:text -f/--fields:text -n --complement -s/--only-delimited --output-delimiter:text -z/--zero-terminated --help --version',
    files,
    ['cut -d, -f1 x.csv', 'cut -c1-10 a'],
    ['cut -f1 a > b', 'cut -f $F a'],
  ),
  entry(
    ['column'],
    '-t/--table -s/--separator:text -o/--output-separator:text -c/--output-width:num -x/--fillrows -N/--table-columns:text -R/--table-right:text -H/--table-hide:text -E/--table-noextreme:text -W/--table-wrap:text -T/--table-truncate:text -O/--table-order:text -J/--json -n/--table-name:text -L/--keep-empty-lines -d/--table-noheadings -l/--table-columns-limit:num -e/--table-header-repeat --help --version',
    files,
    ['column -t -s, x.csv'],
    ['column -t a > b'],
  ),
  entry(
    ['comm'],
    '-1 -2 -3 --check-order --nocheck-order --output-delimiter:text --total -z/--zero-terminated --help --version',
    files,
    ['comm -12 a b'],
    ['comm a b > c'],
  ),
  entry(
    ['cmp'],
    '-b/--print-bytes -i/--ignore-initial:text -l/--verbose -n/--bytes:num -s/--quiet/--silent --help --version',
    files,
    ['cmp a b', 'cmp -n 10 a b'],
    ['cmp a b > c'],
  ),
  entry(
    ['diff'],
    '-q/--brief -s/--report-identical-files -c -C:num --context?num -u -U:num --unified?num -e/--ed -n/--rcs -y/--side-by-side -W/--width:num --left-column --suppress-common-lines -p/--show-c-function -F/--show-function-line:text --label:text -t/--expand-tabs -T/--initial-tab --tabsize:num --suppress-blank-empty -r/--recursive --no-dereference -N/--new-file --unidirectional-new-file --ignore-file-name-case --no-ignore-file-name-case -x/--exclude:text -X/--exclude-from:read -S/--starting-file:text --from-file:read --to-file:read -i/--ignore-case -E/--ignore-tab-expansion -Z/--ignore-trailing-space -b/--ignore-space-change -w/--ignore-all-space -B/--ignore-blank-lines -I/--ignore-matching-lines:text -a/--text --strip-trailing-cr -D/--ifdef:text --line-format:text -d/--minimal --horizon-lines:num --speed-large-files --color?never|always|auto --palette:text --normal --help -v/--version',
    {
      ...files,
      recursive: ['-r'],
      settings: { refused: '--paginate' },
      summary:
        'only the listed options (never `-l`/`--paginate`, which runs pr); operands are files read (`-r` recursively)',
    },
    ['diff a b', 'diff -ru src other', 'diff -u a b'],
    ['diff a b > p.diff', 'diff -l a b', 'diff --pag a b'],
  ),
  entry(
    ['paste'],
    '-d/--delimiters:text -s/--serial -z/--zero-terminated --help --version',
    files,
    ['paste -d, a b'],
    ['paste a b > c'],
  ),
  entry(
    ['join'],
    '-a:num -e:text -i/--ignore-case -j:num -o:text -t:text -v:num -1:num -2:num --check-order --nocheck-order --header -z/--zero-terminated --help --version',
    files,
    ['join -t, a b'],
    ['join a b > c'],
  ),
  entry(
    ['fold'],
    '-b/--bytes -s/--spaces -w/--width:num --help --version',
    files,
    ['fold -w 80 a'],
    ['fold a > b'],
  ),
  entry(
    ['fmt'],
    '-c/--crown-margin -p/--prefix:text -s/--split-only -t/--tagged-paragraph -u/--uniform-spacing -w/--width:num -g/--goal:num --help --version',
    { ...files, settings: { numericShort: true } },
    ['fmt -w 72 a'],
    ['fmt a > b'],
  ),
  entry(
    ['expand'],
    '-i/--initial -t/--tabs:text --help --version',
    files,
    ['expand -t 4 a'],
    ['expand a > b'],
  ),
  entry(
    ['unexpand'],
    '-a/--all --first-only -t/--tabs:text --help --version',
    files,
    ['unexpand -a a'],
    ['unexpand a > b'],
  ),
  entry(
    ['od'],
    '-A/--address-radix:d|o|x|n -j/--skip-bytes:text -N/--read-bytes:text -S:num --strings?num -t/--format:text -v/--output-duplicates -w:num --width?num --endian:big|little -a -b -c -d -f -i -l -o -s -x --traditional --help --version',
    files,
    ['od -c a.bin', 'od -A x -t x1z a'],
    ['od a > b'],
  ),
  entry(
    ['hexdump', 'hd'],
    '-b/--one-byte-octal -X/--one-byte-hex -c/--one-byte-char -C/--canonical -d/--two-bytes-decimal -o/--two-bytes-octal -x/--two-bytes-hex -e/--format:text -f/--format-file:read -L/--color?always|never|auto -n/--length:num -s/--skip:num -v/--no-squeezing -h/--help -V/--version',
    files,
    ['hexdump -C a.bin'],
    ['hexdump a > b'],
  ),
  entry(
    ['strings'],
    '-a/--all -d/--data -f/--print-file-name -n/--bytes:num -t/--radix:o|d|x -o -e/--encoding:s|S|b|l|B|L -T/--target:text -w/--include-all-whitespace -s/--output-separator:text -U/--unicode:default|show|invalid|locale|escape|hex|highlight -h/--help -v/-V/--version',
    { ...files, responseFiles: true, settings: { numericShort: true } },
    ['strings -n 8 a.bin'],
    ['strings a > b', 'strings @opts a'],
  ),
  entry(
    ['stat'],
    '-L/--dereference -f/--file-system -c/--format:text --printf:text -t/--terse --cached:always|never|default --help --version',
    files,
    ['stat src', "stat -c '%s' a"],
    ['stat a > b'],
  ),
  entry(
    ['md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum'],
    '-b/--binary -c/--check -t/--text --tag --untagged -z/--zero --ignore-missing --quiet --status --strict -w/--warn -l/--length:num -a/--algorithm:text --base64 --raw --debug -r -s/--sysv --help --version',
    {
      ...files,
      listOptions: ['-c'],
      summary:
        'only the listed options; operands are files read; with `-c` they list more files read, which the line does not name',
    },
    ['sha256sum a', 'md5sum a b'],
    ['sha256sum a > sums', 'md5sum --bogus a'],
  ),
  entry(
    ['base64', 'base32', 'basenc'],
    '-d/--decode -i/--ignore-garbage -w/--wrap:num --base64 --base64url --base32 --base32hex --base16 --base2msbf --base2lsbf --z85 --help --version',
    files,
    ['base64 key.bin', 'base64 -d x'],
    ['base64 -o out in', 'base64 in > out'],
  ),
  entry(
    ['xxd'],
    '-a -autoskip -b -bits -C -capitalize -c:num -cols:num -e -E -EBCDIC -g:num -groupsize:num -h -help -i -include -l:num -len:num -n:text -name:text -o:num -offset:num -p -ps -postscript -plain -R:always|auto|never -s:text -seek:text -u -v -version',
    {
      operands: 'inThenOut',
      settings: { clusters: false, abbreviations: false },
      summary: 'only the listed options (never `-r`); a second operand is a file written',
    },
    ['xxd a.bin', 'xxd -l 64 a.bin'],
    ['xxd a.bin out', 'xxd -r a'],
  ),
  entry(
    ['tree'],
    '-a -d -l -f -x -L:num -P:text -I:text --gitignore --ignore-case --matchdirs --metafirst --prune --info --noreport --charset:text --filelimit:num -o:write -i -q -N -Q -p -u -g -s -h --si --du -D --timefmt:text -F --inodes --device -v -t -c -U -r --dirsfirst --filesfirst --sort:name|version|size|mtime|ctime -n -C -A -S -X -J --nolinks --help --version',
    {
      operands: 'files',
      cwdDefault: true,
      recursive: true,
      settings: { abbreviations: false },
      summary: 'only the listed options (never `-R` or `--fromfile`); `-o` names a file written; recursive',
    },
    ['tree -L 2 src', 'tree'],
    ['tree -o out.txt', 'tree -R -H x'],
  ),
  entry(
    ['du'],
    '-0/--null -a/--all --apparent-size -B/--block-size:text -b/--bytes -c/--total -D/--dereference-args -H -d/--max-depth:num --files0-from:list -h/--human-readable --inodes -k -L/--dereference -l/--count-links -m -P/--no-dereference -S/--separate-dirs --si -s/--summarize -t/--threshold:text --time?atime|access|use|ctime|status --time-style:text -X/--exclude-from:read --exclude:text -x/--one-file-system --help --version',
    {
      operands: 'files',
      cwdDefault: true,
      recursive: true,
      anyArgsSafe: true,
      summary: 'only the listed options; operands are folders read recursively',
    },
    ['du -sh src', 'du -sh'],
    ['du -sh > sizes', 'du --bogus'],
  ),
  entry(
    ['df'],
    '-a/--all -B/--block-size:text -h/--human-readable -H/--si -i/--inodes -k -l/--local --no-sync --output?text -P/--portability --sync --total -t/--type:text -T/--print-type -x/--exclude-type:text -v --help --version',
    { operands: 'text' },
    ['df -h', 'df -h .'],
    ['df > x', 'df --bogus'],
  ),
  entry(
    ['file'],
    '-b/--brief -c/--checking-printout -e/--exclude:text --exclude-quiet:text -E --extension -f/--files-from:list -F/--separator:text -h/--no-dereference -i/--mime --mime-type --mime-encoding -k/--keep-going -l/--list -L/--dereference -m/--magic-file:read -n/--no-buffer -0/--print0 -N/--no-pad -P/--parameter:text -r/--raw -s/--special-files --help -v/--version',
    {
      operands: 'files',
      settings: { refused: '--compile --uncompress --uncompress-noreport --no-sandbox --preserve-date' },
      summary:
        'only the listed options (never `-C`/`--compile`, `-z`/`-Z` (decompressors), `-S`, `-p`); operands are files read',
    },
    ['file a.bin', 'file -b src/*'],
    ['file -C -m magic', 'file --comp -m magic', 'file -z a.gz', 'file -p a'],
  ),
]
