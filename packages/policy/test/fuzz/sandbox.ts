// Runs shell lines with real bash inside a throwaway bubblewrap sandbox and reports, per line,
// whether it wrote a file or ran the canary program. Test-only: the policy itself does no I/O.
import { spawnSync } from 'node:child_process'

/** Where each line runs: a fresh copy of a small project (a git repository) under a tmpfs. */
export const SANDBOX_PROJECT = '/tmp/proj'
/** HOME inside the sandbox (a tmpfs too, so writes to `~` are seen). */
export const SANDBOX_HOME = '/tmp/home'

/** What one line did when bash ran it. */
export interface Observed {
  line: string
  /** The canary program ran (`$(canary)`, `sed e canary`, `--pre=canary`, …). */
  executed: boolean
  /** A file under /tmp (the project, HOME, /tmp itself) appeared, vanished or changed. */
  wrote: boolean
  /** What changed, for the failure message. */
  changes: string[]
  /** Its output showed the content of the project's `.env` (`secret=1`). */
  leaked: boolean
}

// The driver runs inside the sandbox: it builds the template project once, then for each line
// (NUL-separated on stdin) runs it with a hard timeout in a copy of it, snapshots /tmp and
// compares with the clean snapshot (a new copy only after a line changed something). `.git/index` (and the `.git` folder's own time) are left out: git refreshes stat data
// there on read-only commands.
const DRIVER = String.raw`
set -u
mkdir -p /tmp/template /tmp/marks /tmp/home /tmp/bin
printf '#!/bin/sh\ntouch /tmp/marks/ran\n' > /tmp/bin/canary
chmod +x /tmp/bin/canary
cd /tmp/template
printf 'hello\nworld\na\n' > a.txt
printf 'b\na\nb\n' > b.txt
printf '{"name":"x","v":[1,2]}\n' > p.json
mkdir -p dir && printf 'x\n' > dir/c.txt
printf 'a.txt\0b.txt\0' > list0
printf 'secret=1\n' > .env
export HOME=/tmp/home GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=f GIT_AUTHOR_EMAIL=f@x GIT_COMMITTER_NAME=f GIT_COMMITTER_EMAIL=f@x
git init -q . && git add -A && git commit -qm init && printf 'u\n' > untracked.txt
printf 'more\n' >> a.txt
__SETUP__
export PATH=/tmp/bin:$PATH
snapshot() {
  find /tmp -mindepth 1 \( -path /tmp/marks -o -path /tmp/template -o -path /tmp/bin -o -path /tmp/proj/.git/index \) -prune -o -printf '%p %s %T@ %m %l\n' | grep -v '^/tmp/proj/.git ' | sort
}
fresh() {
  rm -rf /tmp/proj /tmp/marks/* /tmp/home /tmp/out 2>/dev/null
  mkdir -p /tmp/home
  cp -a /tmp/template /tmp/proj
  clean=$(snapshot)
}
fresh
while IFS= read -r -d '' line; do
  cd /tmp/proj
  timeout -s KILL 2 bash -c "$line" </dev/null >/tmp/marks/output 2>&1
  leaked=0; grep -q 'secret=1' /tmp/marks/output 2>/dev/null && leaked=1
  cd /tmp
  after=$(snapshot)
  executed=0; [ -e /tmp/marks/ran ] && executed=1
  changes=
  if [ "$after" != "$clean" ]; then
    changes=$(diff <(printf '%s\n' "$clean") <(printf '%s\n' "$after") | grep '^[<>]' | head -5 | tr '\n' '|')
  fi
  printf '%s\t%s\t%s\n' "$executed" "$changes" "$leaked"
  # Only a line that changed something needs a fresh copy of the project.
  if [ "$executed" = 1 ] || [ -n "$changes" ]; then fresh; fi
done
`

/** Whether bubblewrap can make a sandbox here (it needs unprivileged user namespaces). */
export function sandboxAvailable(): boolean {
  const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-all', '--die-with-parent', 'true'], {
    stdio: 'ignore',
    timeout: 10_000,
  })
  return probe.status === 0
}

/**
 * Runs every line in one sandbox (a fresh project copy per line) and reports what each did.
 * `setup` runs in the template project after its first commit (a hostile `.git/config`, the
 * environment the engine gives confined lines).
 */
export function runInSandbox(lines: readonly string[], timeoutMs = 120_000, setup = ''): Observed[] {
  if (lines.length === 0) return []
  const run = spawnSync(
    'bwrap',
    [
      '--ro-bind',
      '/',
      '/',
      '--tmpfs',
      '/tmp',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--unshare-all',
      '--die-with-parent',
      '--new-session',
      '--chdir',
      '/tmp',
      'bash',
      '-c',
      DRIVER.replace('__SETUP__', setup),
    ],
    { input: `${lines.join('\0')}\0`, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
  )
  if (run.error) throw run.error
  const rows = run.stdout.split('\n').filter((row) => row !== '')
  if (rows.length !== lines.length) {
    throw new Error(
      `the sandbox reported ${rows.length} of ${lines.length} lines: ${run.stderr.slice(0, 2000)}`,
    )
  }
  return rows.map((row, index) => {
    const [executed = '0', changes = '', leaked = '0'] = row.split('\t')
    const list = changes.split('|').filter(Boolean)
    return {
      line: lines[index] as string,
      executed: executed === '1',
      wrote: list.length > 0,
      changes: list,
      leaked: leaked === '1',
    }
  })
}
