import type { ShellWord } from './types.js'

/** Per command: its short option letters and long options that make a folder walk follow symlinks. */
const FOLLOWING: Readonly<Record<string, { short: string; long: readonly string[] }>> = {
  grep: { short: 'R', long: ['--dereference-recursive'] },
  egrep: { short: 'R', long: ['--dereference-recursive'] },
  fgrep: { short: 'R', long: ['--dereference-recursive'] },
  rg: { short: 'L', long: ['--follow'] },
  find: { short: 'L', long: ['-follow'] },
  ls: { short: 'L', long: ['--dereference'] },
  du: { short: 'L', long: ['--dereference'] },
  tree: { short: 'l', long: [] },
}

/**
 * Whether a recursive read follows symlinks it meets below the folders it names (`rg -L`,
 * `grep -R`, `find -L`, `find -follow`, `ls -LR`, `du -L`, `tree -l`). A committed link such as
 * `lnk -> $HOME` then leads the walk anywhere, which the policy cannot see (issue 34), so such a
 * walk is not proven read-only. Long options are matched with abbreviations.
 */
export function followsLinks(name: string, args: readonly ShellWord[]): boolean {
  if (!Object.hasOwn(FOLLOWING, name)) return false
  const spec = FOLLOWING[name] as { short: string; long: readonly string[] }
  for (const word of args) {
    const value = word.value
    if (value === '--') break
    if (value.startsWith('--') || (name === 'find' && value.length > 2)) {
      const option = value.split('=')[0] as string
      if (option.length > 3 && spec.long.some((long) => long.startsWith(option))) return true
    } else if (/^-[A-Za-z0-9]+$/.test(value) && value.slice(1).includes(spec.short)) return true
  }
  return false
}
