import { options, parseOptions } from './options.js'
import { entry, refused, type TableVerdict } from './read-only-checks.js'
import type { ReadOnlyEntry } from './read-only-entry.js'
import type { ShellWord } from './types.js'

const text = { operands: 'text', anyArgsSafe: true } as const
const none = { operands: 'none', anyArgsSafe: true } as const

/** Commands that print facts about the system or their text operands; they read no file. */
export const INFO_COMMANDS: readonly ReadOnlyEntry[] = [
  {
    names: ['echo'],
    summary: 'prints its operands (bash echo has no option that writes or runs anything)',
    match: ['echo hello', 'echo -n "$HOME"', 'echo *'],
    notMatch: ['echo x > f', 'echo $((a[$(id)]))'],
    anyArgsSafe: true,
    check: () => ({ reads: [], writes: [], recursive: false }),
  },
  entry(['pwd'], '-L -P --help --version', none, ['pwd', 'pwd -P'], ['pwd > x']),
  {
    names: ['true', 'false', ':'],
    summary: 'ignore their operands',
    match: ['true', 'false x'],
    notMatch: ['true > x'],
    anyArgsSafe: true,
    check: () => ({ reads: [], writes: [], recursive: false }),
  },
  entry(['which'], '-a -s', text, ['which node', 'which -a git'], ['which --bogus x']),
  entry(
    ['type'],
    '-a -f -p -P -t',
    { ...text, settings: { abbreviations: false } },
    ['type ls', 'type -t ls'],
    ['type --x ls'],
  ),
  entry(
    ['basename'],
    '-a/--multiple -s/--suffix:text -z/--zero --help --version',
    text,
    ['basename a/b.ts .ts'],
    ['basename --bogus a'],
  ),
  entry(['dirname'], '-z/--zero --help --version', text, ['dirname a/b'], ['dirname --bogus a']),
  entry(
    ['realpath'],
    '-e/--canonicalize-existing -m/--canonicalize-missing -L/--logical -P/--physical -q/--quiet --relative-to:text --relative-base:text -s/--strip/--no-symlinks -z/--zero --help --version',
    text,
    ['realpath src'],
    ['realpath --bogus a'],
  ),
  entry(
    ['readlink'],
    '-f/--canonicalize -e/--canonicalize-existing -m/--canonicalize-missing -n/--no-newline -q/--quiet -s/--silent -v/--verbose -z/--zero --help --version',
    text,
    ['readlink -f x'],
    ['readlink --bogus x'],
  ),
  entry(
    ['seq'],
    '-f/--format:text -s/--separator:text -w/--equal-width --help --version',
    { ...text, settings: { numericShort: true, permute: false } },
    ['seq 1 5', 'seq -5 5'],
    ['seq 1 5 > x'],
  ),
  entry(['whoami'], '--help --version', none, ['whoami'], ['whoami x']),
  entry(
    ['id'],
    '-a -Z/--context -g/--group -G/--groups -n/--name -r/--real -u/--user -z/--zero --help --version',
    text,
    ['id', 'id -u'],
    ['id --bogus'],
  ),
  entry(['groups'], '--help --version', text, ['groups'], ['groups --bogus']),
  entry(
    ['uname'],
    '-a/--all -s/--kernel-name -n/--nodename -r/--kernel-release -v/--kernel-version -m/--machine -p/--processor -i/--hardware-platform -o/--operating-system --help --version',
    none,
    ['uname -a'],
    ['uname x'],
  ),
  entry(['arch'], '--help --version', none, ['arch'], ['arch x']),
  entry(['nproc'], '--all --ignore:num --help --version', none, ['nproc'], ['nproc x']),
  entry(
    ['printenv'],
    '-0/--null --help --version',
    text,
    ['printenv HOME', 'printenv'],
    ['printenv --bogus'],
  ),
  entry(['tty'], '-s/--silent/--quiet --help --version', none, ['tty'], ['tty x']),
  entry(
    ['locale'],
    '-a/--all-locales -m/--charmaps -c/--category-name -k/--keyword-name -v/--verbose --help --version',
    text,
    ['locale'],
    ['locale --bogus'],
  ),
  {
    names: ['expr'],
    summary: 'literal operands (expr evaluates only its own operands)',
    match: ['expr 1 + 2'],
    notMatch: ['expr $X + 1'],
    check: (args: readonly ShellWord[]): TableVerdict =>
      args.every((word) => word.literal)
        ? { reads: [], writes: [], recursive: false }
        : refused('expr operands must be literal'),
  },
  entry(['sleep'], '--help --version', text, ['sleep 1'], ['sleep --bogus']),
  entry(
    ['tr'],
    '-c/-C/--complement -d/--delete -s/--squeeze-repeats -t/--truncate-set1 --help --version',
    text,
    ['tr a-z A-Z', "tr -d '\\r'"],
    ['tr a b > f'],
  ),
  entry(['yes'], '--help --version', text, ['yes n'], ['yes > f']),
  entry(
    ['free'],
    '-b/--bytes -k/--kibi -m/--mebi -g/--gibi --tebi --pebi --kilo --mega --giga --tera --peta -h/--human --si -l/--lohi -L/--line -t/--total -v/--committed -s/--seconds:num -c/--count:num -w/--wide --help -V/--version',
    none,
    ['free -h'],
    ['free x'],
  ),
  entry(['uptime'], '-p/--pretty -s/--since -h/--help -V/--version', none, ['uptime'], ['uptime x']),
  entry(['jobs'], '-l -n -p -r -s', { ...text, settings: { abbreviations: false } }, ['jobs'], ['jobs -x']),
  entry(
    ['hostname'],
    '-a/--alias -A/--all-fqdns -d/--domain -f/--fqdn/--long -i/--ip-address -I/--all-ip-addresses -s/--short -y/--yp/--nis -V/--version -h/--help',
    { ...none, settings: { refused: '--file --boot' } },
    ['hostname', 'hostname -f'],
    ['hostname newname', 'hostname -F /etc/x', 'hostname -Fx', 'hostname --fi=x'],
  ),
  entry(['env'], '-0/--null', { operands: 'none' }, ['env'], ['env FOO=1', 'env -u X']),
]

const DEV_TOOLS: Readonly<
  Record<string, { globals: string; subs: Readonly<Record<string, string>>; summary: string }>
> = {
  npm: {
    globals: '-v/--version',
    subs: {
      ls: '-a/--all --depth:num --json -l/--long -p/--parseable --omit:text --include:text --link -g/--global --prod --dev',
      list: '-a/--all --depth:num --json -l/--long -p/--parseable',
    },
    summary: 'npm --version, npm ls/list with listing options',
  },
  cargo: { globals: '-V/--version', subs: { version: '' }, summary: 'cargo --version, cargo version' },
  go: {
    globals: '',
    subs: { version: '' },
    summary: 'go version only (other subcommands build, run or download)',
  },
  docker: {
    globals: '-v/--version',
    subs: {
      ps: '-a/--all -q/--quiet -n/--last:num -l/--latest --no-trunc -s/--size --format:text -f/--filter:text',
      images: '-a/--all -q/--quiet --no-trunc --digests --format:text -f/--filter:text',
      version: '--format:text',
    },
    summary: 'docker --version; ps, images and version with listing options (never -H/--context/--config)',
  },
  kubectl: {
    globals: '',
    subs: { version: '--client --output:json|yaml' },
    summary: 'kubectl version --client',
  },
}

function devTool(name: string): (args: readonly ShellWord[]) => TableVerdict {
  const tool = DEV_TOOLS[name] as (typeof DEV_TOOLS)[string]
  const globals = options(tool.globals, { permute: false, abbreviations: false })
  const subs = Object.fromEntries(
    Object.entries(tool.subs).map(([sub, spec]) => [sub, options(spec, { abbreviations: false })]),
  )
  return (args) => {
    const parsed = parseOptions(args, globals)
    if (parsed.refusal) return refused(`${name}: ${parsed.refusal}`)
    const [sub, ...rest] = parsed.operands
    if (!sub)
      return parsed.seen.size > 0
        ? { reads: [], writes: [], recursive: false }
        : refused(`${name} without a subcommand`)
    const table = sub.literal ? subs[sub.value] : undefined
    if (!table) return refused(`${name} ${sub.value} is not in the read-only list`)
    const inner = parseOptions(rest, table)
    if (inner.refusal) return refused(`${name} ${sub.value}: ${inner.refusal}`)
    if (inner.operands.length > 0 && name !== 'npm')
      return refused(`${name} ${sub.value} takes no operands here`)
    return { reads: [], writes: [], recursive: false }
  }
}

/** Build tools with a few read-only subcommands (their other subcommands build, install or publish). */
export const DEV_COMMANDS: readonly ReadOnlyEntry[] = [
  {
    names: ['npm'],
    summary: DEV_TOOLS.npm?.summary ?? '',
    match: ['npm ls', 'npm --version', 'npm ls --depth=0'],
    notMatch: ['npm install', 'npm run x', 'npm --registry=x publish', 'npm ls --bogus'],
    check: devTool('npm'),
  },
  {
    names: ['cargo'],
    summary: DEV_TOOLS.cargo?.summary ?? '',
    match: ['cargo --version'],
    notMatch: ['cargo build', 'cargo tree'],
    check: devTool('cargo'),
  },
  {
    names: ['go'],
    summary: DEV_TOOLS.go?.summary ?? '',
    match: ['go version'],
    notMatch: ['go run .', 'go env -w X=1'],
    check: devTool('go'),
  },
  {
    names: ['docker'],
    summary: DEV_TOOLS.docker?.summary ?? '',
    match: ['docker ps -a', 'docker images'],
    notMatch: ['docker run x', 'docker -H tcp://x ps', 'docker rm x'],
    check: devTool('docker'),
  },
  {
    names: ['kubectl'],
    summary: DEV_TOOLS.kubectl?.summary ?? '',
    match: ['kubectl version --client'],
    notMatch: ['kubectl delete pod x', 'kubectl get secrets'],
    check: devTool('kubectl'),
  },
]
