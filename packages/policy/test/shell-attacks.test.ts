import type { PermissionMode } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { provesReadOnly } from '../src/index.js'
import { bash, context } from './helpers.js'

type Expected = 'allow' | 'ask' | 'deny'
const MODES: readonly PermissionMode[] = ['default', 'acceptEdits', 'plan', 'bypass']

// Issue 12, critical findings and "classes the policy cases also found" that concern shell lines.
// Each row is one spelling of a class; the class is what the table must hold.

describe('1. subscripts and arithmetic bash evaluates (command substitution inside)', () => {
  it.each([
    "[[ 'a[$(id > marker)]' -eq 1 ]]",
    '[[ x -eq 1 ]]',
    '[[ $x -lt 2 ]]',
    "test -v 'a[$(id)]'",
    "[ -v 'a[$(id)]' ]",
    "[[ -v 'a[$(id)]' ]]",
    "printf -v 'a[$(id)]' %s 1",
    'echo $((a[$(id)]))',
    'echo $((x))',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    'echo ${a[$i]}',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion
    'echo ${x:$n}',
    'cat $[1+1]',
    'cat <<EOF\n$((x))\nEOF',
  ])('%j is not proven read-only, in any mode', (line) => {
    expect(provesReadOnly(line, '/proj', '/home/u')).toBe(false)
    expect(bash(line, context('plan')).decision).toBe('deny')
    expect(bash(line).decision).toBe('ask')
  })
})

describe('2. pager and exec options under other spellings', () => {
  it.each([
    'git grep --open-files-in-pager=sh foo',
    'git grep --open-files-in=sh foo',
    'git grep --open=sh foo',
    'git grep -O foo',
    'git grep -Osh foo',
    'git grep -iOsh foo',
    'rg --pre=sh foo',
    'rg -z foo',
    'file -z a.gz',
    'diff -l a b',
    'sort --compress-program=sh a',
  ])('%j asks', (line) => {
    expect(provesReadOnly(line, '/proj', '/home/u')).toBe(false)
    expect(bash(line).decision).toBe('ask')
  })
})

describe('3. GNU long-option abbreviations', () => {
  it.each([
    "sed --in 's/a/b/' f",
    "sed --in-pl 's/a/b/' f",
    "sed --e='1e id' f",
    "sed --expr='w out' f",
    "sed --expression='1e id' f",
    'sort --o=out a',
    'sort --out=out a',
    'sort --compress=sh a',
    'sort --comp=sh a',
    'date --se=2020-01-01',
    'date --s=now',
    'file --comp -m x',
    'file --un a.gz',
    'hostname --fi=/etc/x',
    'git log --outp=/tmp/x',
    'git diff --ext',
    'ls --d',
  ])('%j asks', (line) => {
    expect(provesReadOnly(line, '/proj', '/home/u')).toBe(false)
    expect(bash(line).decision).toBe('ask')
  })
  it.each(['ls --sort=time', 'ls --recursive', 'ls --recur', 'grep --line-n foo a', 'head --lin=3 a'])(
    'an unambiguous abbreviation of an allowed option works: %j',
    (line) => {
      expect(provesReadOnly(line, '/proj', '/home/u')).toBe(true)
    },
  )
})

describe('4. heredocs whose delimiter is unquoted after bash joins backslash-newline', () => {
  const denyRm = context('bypass', { deny: ['Bash(rm:*)'] })
  it.each(['cat <<E\\\nND\n$(rm -rf x)\nEND', 'cat <<EOF\n\\\nEOF\n$(rm x)\nEOF'])(
    '%j: the body expands, so the deny rule holds',
    (line) => {
      expect(bash(line, denyRm).decision).toBe('deny')
      expect(provesReadOnly(line, '/proj', '/home/u')).toBe(false)
    },
  )
  it('a quoted delimiter keeps arithmetic in the body literal too', () => {
    expect(provesReadOnly("cat <<'EOF'\n$((x))\nEOF", '/proj', '/home/u')).toBe(true)
  })
  it('a really quoted delimiter keeps the body literal', () => {
    expect(bash("cat <<'END'\n$(rm -rf x)\nEND", denyRm).decision).toBe('allow')
  })
})

describe('5. git with another repository or config in play', () => {
  it.each([
    'cd evil && git status',
    'cd sub && git log',
    'cd /tmp/x && git status',
    'git -C evil status',
    'git --git-dir=evil/.git status',
    'git --git-dir evil status',
    'git --work-tree=evil status',
    'GIT_DIR=evil git status',
    'GIT_CONFIG_GLOBAL=x git status',
    'git -c core.fsmonitor=./x status',
    'git --config-env=core.pager=X log',
    'git --exec-path=. status',
    'env GIT_DIR=evil git status',
  ])('%j asks', (line) => {
    expect(provesReadOnly(line, '/proj', '/home/u')).toBe(false)
    expect(bash(line).decision).toBe('ask')
  })
  it('git in the session cwd is proven', () => {
    expect(bash('git status').decision).toBe('allow')
    expect(bash('cd . && git status').decision).toBe('allow')
  })
})

describe('7. options that print environments', () => {
  it.each([
    'ps e',
    'ps axeww',
    'ps auxe',
    'ps -o pid,environ',
    'ps eww 1',
    'ps --format=environ',
    'cat /proc/1/environ',
    'cat /proc/self/environ',
  ])('%j asks', (line) => {
    expect(bash(line).decision).toBe('ask')
  })
  it.each(['ps', 'ps aux', 'ps -ef', 'ps -o pid,args'])('%j runs', (line) => {
    expect(bash(line).decision).toBe('allow')
  })
})

describe('8. reads outside the project through cd, options and list files', () => {
  it.each([
    'cd -P ~ && cat .ssh/id_rsa',
    'cd -P ~',
    'cd -- && cat .ssh/id_rsa',
    'cd && cat .ssh/id_rsa',
    'cd -L ~ && ls',
    'cd -L .. && ls',
    'cd /etc && cat passwd',
    'cd - && ls',
    'git blame --contents=/etc/passwd a.ts',
    'git blame --contents /etc/passwd a.ts',
    'git config --list --file=/home/u/.gitconfig',
    'git config --list -f /etc/gitconfig',
    'md5sum -c sums.txt',
    'md5sum -c /etc/sums',
    'sort --files0-from=list',
    'wc --files0-from=-',
    'grep -f /etc/passwd x',
    'sed r/etc/passwd x',
    'date -r /etc/shadow',
    'diff --from-file=/etc/passwd a',
  ])('%j asks', (line) => {
    expect(bash(line).decision).toBe('ask')
  })
  it('cd moves the cwd the next commands are checked in', () => {
    expect(bash('cd src && cat a.ts').decision).toBe('allow')
    expect(bash('cd src && cat ../../etc/passwd').decision).toBe('ask')
  })
  it('an option naming a file is a read Read deny rules reach', () => {
    const ctx = context('default', { deny: ['Read(./.env)'] })
    for (const line of [
      'git blame --contents=.env a.ts',
      'git config --list --file=.env',
      'grep -f .env x',
      "sed 'r .env' x",
      'sed r.env x',
      'md5sum -c .env',
    ])
      expect([line, bash(line, ctx).decision]).toEqual([line, 'deny'])
  })
})

describe('10. a Read deny rule holds against what a line may reach, in every mode', () => {
  const lines = [
    'x=.env; cat $x',
    'cat $(echo .env)',
    'cat "$(echo .env)"',
    'cat `echo .env`',
    'cat /proc/self/cwd/.env',
    'cat /proc/self/root/proj/.env',
    'cat /proc/thread-self/cwd/.env',
    'cat /dev/fd/3 3<.env',
    'sort --files0-from=-',
    'wc --files0-from=- < list',
    'git grep --untracked KEY',
    'git grep --no-index KEY',
    'git grep KEY',
    'git show HEAD',
    'git log -p',
    'git diff',
    'git cat-file -p 0123abcd',
    'cat *',
    'head -n 1 .en?',
    'ls | xargs cat',
  ]
  it.each(MODES.flatMap((mode) => lines.map((line) => [mode, line] as const)))(
    '%s: %j never allows',
    (mode, line) => {
      const decision = bash(line, context(mode, { deny: ['Read(./.env)'] })).decision
      expect(decision).not.toBe('allow')
    },
  )
  it.each([
    ["sed 'r .env' x", 'deny'],
    ['git blame --contents=.env a', 'deny'],
    ['git show HEAD:.env', 'deny'],
    ['git grep KEY -- src', 'allow'],
    ['git log --oneline', 'allow'],
    ['cat src/a.ts', 'allow'],
  ] as const)('bypass: %j → %s', (line, expected) => {
    expect(bash(line, context('bypass', { deny: ['Read(./.env)'] })).decision).toBe(expected)
  })
})

describe('parse failures never allow, in any mode', () => {
  const lines = [
    'ls |',
    '&& ls',
    'ls &&',
    '| ls',
    'ls ; ; ls',
    'ls || ',
    'if true; then ls',
    'if ls',
    'while true; do ls',
    'for i in a; do ls',
    'ls; fi',
    'then ls',
    '{ ls',
    "echo 'unterminated",
    'echo "unterminated',
    'cat <<EOF\nno end',
    '(ls',
    'ls)',
    '$(ls',
  ]
  it.each(MODES.flatMap((mode) => lines.map((line) => [mode, line] as const)))('%s: %j', (mode, line) => {
    const decision = bash(line, context(mode)).decision
    expect(decision).toBe(mode === 'plan' ? 'deny' : 'ask')
  })
  it.each(['ls &&\nls', 'ls |\nwc -l', 'if true; then ls; fi', '{ ls; }', '(ls)', 'ls;', 'ls &'])(
    'complete lines still work: %j',
    (line) => {
      expect(bash(line).decision).toBe('allow')
    },
  )
})

describe('writes need edit permission whatever rule allowed the command', () => {
  it.each<[string, string, Expected]>([
    ['Bash(git log:*)', 'git log --output=/home/u/x', 'ask'],
    ['Bash(git log:*)', 'git log --output=out.txt', 'ask'],
    ['Bash(git log:*)', 'git log --oneline', 'allow'],
    ['Bash(git diff:*)', 'git diff --output=/tmp/x', 'ask'],
    ['Bash(sed:*)', "sed 's/a/b/w /home/u/x' f", 'ask'],
    ['Bash(sed:*)', "sed -i 's/a/b/' /home/u/.bashrc", 'ask'],
    ['Bash(curl:*)', 'curl -o /home/u/x https://example.com', 'ask'],
    ['Bash(curl:*)', 'curl -O https://example.com/x', 'ask'],
    ['Bash(curl:*)', 'curl https://example.com', 'allow'],
    ['Bash(wget:*)', 'wget https://example.com/x', 'ask'],
    ['Bash(sort:*)', 'sort -o /home/u/x a', 'ask'],
    ['Bash(sort:*)', 'sort -o out a', 'ask'],
    ['Bash(echo:*)', 'echo x > file', 'ask'],
    ['Bash(npm test:*)', 'npm test > out.txt', 'ask'],
    ['Bash(npm test:*)', 'npm test > /dev/null 2>&1', 'allow'],
    ['Bash(tree:*)', 'tree -o /home/u/t', 'ask'],
  ])('%s: %j → %s', (rule, line, expected) => {
    expect(bash(line, context('default', { allow: [rule] })).decision).toBe(expected)
  })
  it('acceptEdits or an Edit rule gives the edit permission inside the project', () => {
    expect(
      bash('git log --output=out.txt', context('acceptEdits', { allow: ['Bash(git log:*)'] })).decision,
    ).toBe('allow')
    expect(
      bash('git log --output=out.txt', context('default', { allow: ['Bash(git log:*)', 'Edit(/out.txt)'] }))
        .decision,
    ).toBe('allow')
    expect(
      bash('git log --output=/home/u/x', context('acceptEdits', { allow: ['Bash(git log:*)'] })).decision,
    ).toBe('ask')
  })
  it.each([
    'find . -delete',
    'find . -exec rm {} ;',
    'find . -fprint out',
    "sed -i 's/a/b/' f",
    'sort -o out a',
    'echo x > file',
  ])('%j is not read-only', (line) => {
    expect(bash(line).decision).toBe('ask')
    expect(bash(line, context('plan')).decision).toBe('deny')
  })
})

describe('deny rules see past options before the subcommand', () => {
  const ctx = context('default', {
    deny: ['Bash(git push:*)', 'Bash(npm publish:*)', 'Bash(docker run:*)', 'Bash(kubectl delete:*)'],
  })
  it.each([
    'git -c k=v push',
    'git -C . push origin main',
    'git --no-pager push',
    'git --git-dir=.git --work-tree=. push',
    'npm --registry=https://x publish',
    'npm --registry https://x publish',
    'docker -H tcp://x run img',
    'kubectl -n prod delete pod x',
    'kubectl --context=prod delete pod x',
  ])('%j → deny', (line) => {
    expect(bash(line, ctx).decision).toBe('deny')
  })
})

describe('cd outside the project under an allow rule for the next command', () => {
  const ctx = context('default', { allow: ['Bash(make:*)', 'Bash(npm test:*)'] })
  it.each([
    ['cd /tmp && make', 'ask'],
    ['cd ~ && npm test', 'ask'],
    ['cd .. && make', 'ask'],
    ['cd && make', 'ask'],
    ['cd src && make', 'allow'],
  ] as const)('%j → %s', (line, expected) => {
    expect(bash(line, ctx).decision).toBe(expected)
  })
})

describe('git config writes are not reads', () => {
  it.each([
    ['Bash(git config:*)', 'git config core.fsmonitor ./x', 'ask'],
    ['Bash(git config:*)', 'git config --add core.pager x', 'ask'],
    ['Bash(git config:*)', 'git config --get user.name', 'allow'],
    ['Bash(git:*)', 'git config core.hooksPath hooks', 'ask'],
  ] as const)('%s: %j → %s', (rule, line, expected) => {
    expect(bash(line, context('default', { allow: [rule] })).decision).toBe(expected)
  })
  it('git config --global writes ~/.gitconfig, outside the project', () => {
    expect(
      bash('git config --global user.name x', context('default', { allow: ['Bash(git config:*)'] })).decision,
    ).toBe('ask')
  })
})

describe('globs and expansions that may turn into options', () => {
  it.each(['sort *', 'cat *', 'ls -la $OPTS', 'grep foo $FILES', 'find $DIR -name x', 'head -n $N a'])(
    '%j is not proven',
    (line) => {
      expect(provesReadOnly(line, '/proj', '/home/u')).toBe(false)
    },
  )
  it.each(['cat src/*.ts', 'wc -l src/*.ts', 'ls -- *', 'echo *'])('%j is proven', (line) => {
    expect(provesReadOnly(line, '/proj', '/home/u')).toBe(true)
  })
})

// Everyday read-only work must run without asking (the precision list of issue 12).
const PRECISION = [
  'ls -la',
  'ls -R src',
  'ls -lah src',
  'git log --oneline -n 5',
  'git log --oneline -10',
  'git status',
  'git status --short',
  'git diff HEAD~1',
  'git diff --stat',
  'git show HEAD:README.md',
  'git show --stat HEAD',
  'git branch -a',
  'git rev-parse --abbrev-ref HEAD',
  'git ls-files src',
  'git blame -L 1,20 src/a.ts',
  'grep -rn foo src',
  "grep -rn --include='*.ts' foo src",
  'rg -n foo',
  'rg --files',
  "find . -name '*.ts' -type f",
  'find src -maxdepth 2 -type d',
  'jq .name package.json',
  'jq -r .version package.json',
  'head -n 20 f',
  'head -20 f',
  'tail -n 50 log.txt',
  'wc -l f',
  'wc -l src/*.ts',
  'cat a | sort | uniq -c',
  'cat a | sort | uniq -c | sort -rn | head',
  "sed -n '1,20p' f",
  "awk '{print $1}' f",
  "awk -F, '{print $2}' data.csv",
  'pwd',
  'which node',
  'echo hi',
  'echo "$HOME"',
  'diff a b',
  'diff -u a b',
  'stat f',
  'file f',
  'tree',
  'tree -L 2 src',
  'du -sh',
  'du -sh src',
  'df -h',
  'cat README.md',
  'cut -d, -f1 a.csv',
  'sort -u a',
  'basename src/a.ts',
  'date +%F',
  'uname -a',
  'printenv HOME',
  'ls -la && git status',
  'cd src && ls',
  'grep -c foo a 2>/dev/null',
  'command -v git',
  'test -f package.json && cat package.json',
  '[ -d src ] && ls src',
  'npm ls --depth=0',
  'sha256sum a',
]

describe('precision: everyday read-only work runs without asking', () => {
  it.each(PRECISION)('%j → allow', (line) => {
    expect(bash(line).decision).toBe('allow')
  })
})
