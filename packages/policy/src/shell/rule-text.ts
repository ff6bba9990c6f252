import type { ShellWord } from './types.js'

/** Options before the subcommand that a Bash deny rule must see past (`git -c k=v push`). */
const GLOBAL_VALUE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  git: [
    '-c',
    '-C',
    '--git-dir',
    '--work-tree',
    '--namespace',
    '--config-env',
    '--exec-path',
    '--super-prefix',
  ],
  npm: ['--registry', '--prefix', '-C', '--userconfig', '--cache', '--loglevel', '-w', '--workspace'],
  pnpm: ['-C', '--dir', '--filter', '-F', '--registry', '--reporter', '--loglevel'],
  yarn: ['--cwd', '--registry'],
  cargo: ['--manifest-path', '--config', '-Z', '-C', '--color'],
  docker: ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level'],
  kubectl: ['-n', '--namespace', '--context', '--kubeconfig', '--cluster', '--user', '-s', '--server'],
  go: ['-C'],
}

/**
 * The command as a deny rule should see it, without the options before its subcommand
 * (`git -c k=v push` → `git push`); undefined when there are none.
 */
export function ruleTextOf(words: readonly ShellWord[]): string | undefined {
  const name = words[0]
  const values = name?.literal ? GLOBAL_VALUE_OPTIONS[name.value] : undefined
  if (!name || !values) return undefined
  let index = 1
  while (index < words.length) {
    const value = (words[index] as ShellWord).value
    if (!value.startsWith('-') || value === '-') break
    if (value === '--') {
      index++
      break
    }
    index += values.includes(value) ? 2 : 1
  }
  if (index === 1) return undefined
  return [name.value, ...words.slice(index).map((word) => word.value)].join(' ')
}
