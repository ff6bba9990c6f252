import { EXIT, UsageError, unknownWordError } from './cli-error.js'
import { closestMatch } from './closest.js'
import type { CommandEntry, CommandIo } from './command.js'
import { startEarlyComposer } from './tui/early-composer.js'
import { cliVersion } from './version.js'

/** Every subcommand, in the order `--help` lists them. Add a row here to add one. */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'chat',
    summary: 'the interactive chat (also what plain `z-engine` runs)',
    load: () => import('./commands/chat.js'),
  },
  {
    name: 'acp',
    summary: 'serve the Agent Client Protocol over stdio (for editors)',
    load: () => import('./commands/acp.js'),
  },
  {
    name: 'exec',
    summary: 'run one turn headless (text, json or stream-json output)',
    load: () => import('./commands/exec.js'),
  },
  {
    name: 'sessions',
    summary: 'list, show, fork and rewind stored sessions',
    load: () => import('./commands/sessions.js'),
  },
  {
    name: 'serve',
    summary: 'the protocol over stdio as JSON lines (commands in, events out), for GUIs',
    load: () => import('./commands/serve.js'),
  },
  {
    name: 'doctor',
    summary: 'check provider keys, git, ripgrep, sandbox, language servers and folders',
    load: () => import('./commands/doctor.js'),
  },
  {
    name: 'agents',
    summary: 'list the agent definitions a session loads (agents list)',
    load: () => import('./commands/agents.js'),
  },
  {
    name: 'commands',
    summary: 'list / commands, or expand one without starting a turn',
    load: () => import('./commands/commands.js'),
  },
  {
    name: 'skills',
    summary: 'list the skills a session offers (skills list)',
    load: () => import('./commands/skills.js'),
  },
  {
    name: 'hooks',
    summary: 'list configured hooks, or run one event on a test input',
    load: () => import('./commands/hooks.js'),
  },
  {
    name: 'mcp',
    summary: 'list configured MCP servers (mcp list)',
    load: () => import('./commands/mcp.js'),
  },
  {
    name: 'plugin',
    summary: "marketplaces and plugins in Claude Code's format (add, install, enable, list)",
    load: () => import('./commands/plugin.js'),
  },
  {
    name: 'instructions',
    summary: 'show the instruction files and rules a session loads, in order',
    load: () => import('./commands/instructions.js'),
  },
  {
    name: 'settings',
    summary: 'explain each effective setting and the layer that set it',
    load: () => import('./commands/settings.js'),
  },
  {
    name: 'trust',
    summary: 'trust a workspace (or --revoke) without a terminal, e.g. in CI',
    load: () => import('./commands/trust.js'),
  },
  {
    name: 'gateway',
    summary: 'serve the OpenAI Responses API statefully in front of an inference server',
    // An optional peer: the gateway (and its database drivers) installs only for those who use it.
    load: () =>
      import('@z-engine/gateway').catch(() => {
        throw new UsageError('the gateway is not installed: npm install @z-engine/gateway')
      }),
  },
  {
    name: 'permissions',
    summary: 'check what the permission policy decides for tool calls (JSON lines)',
    load: () => import('./commands/permissions.js'),
  },
]

/** `-p`/`--print`: Claude Code's headless command line, reached only through the flag. */
const PRINT: CommandEntry = {
  name: 'print',
  summary: "Claude Code's headless mode (claude -p)",
  load: () => import('./commands/print.js'),
}

function helpText(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length), 8)
  const rows = COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`)
  return [
    `z-engine ${cliVersion()} — an embeddable coding agent`,
    '',
    'Usage: z-engine [command] [options]',
    '       z-engine -p "prompt" [claude -p flags]   (Claude Code\'s headless mode and output shapes)',
    '       z-engine "a prompt of several words"     (runs exec)',
    '',
    'Commands:',
    ...rows,
    '',
    'Options:',
    "  -h, --help     show this help (or a command's, after the command)",
    '  -v, --version  print the version',
    '',
  ].join('\n')
}

/** Which subcommand runs, and with which arguments. */
export interface Route {
  command: string
  argv: string[]
}

/**
 * Picks the subcommand for argv. Besides `z-engine <command> …`, Claude Code's habits work:
 * `-p`/`--print` anywhere (before `--`) runs Claude Code's headless mode (`print`), a bare prompt
 * (`z-engine "fix the bug"`, or several words) runs `exec`; flags alone or nothing open the chat. A lone unknown word stays an error,
 * since it is far more often a mistyped command than a one-word prompt.
 */
export function routeOf(argv: readonly string[]): Route {
  const [first, ...rest] = argv
  if (first !== undefined && COMMANDS.some((command) => command.name === first))
    return { command: first, argv: rest }
  const end = argv.indexOf('--')
  const print = (end === -1 ? argv : argv.slice(0, end)).findIndex((arg) => arg === '-p' || arg === '--print')
  if (print !== -1) return { command: 'print', argv: [...argv.slice(0, print), ...argv.slice(print + 1)] }
  if (first === undefined || first.startsWith('-')) return { command: 'chat', argv: [...argv] }
  const names = COMMANDS.map((command) => command.name)
  const nextIsWord = rest[0] !== undefined && !rest[0].startsWith('-')
  if (/\s/.test(first) || (nextIsWord && closestMatch(first, names) === undefined))
    return { command: 'exec', argv: [...argv] }
  const error = unknownWordError('command', first, names)
  throw new UsageError(`${error.message} To send a one-word prompt: z-engine -p '${first}'.`)
}

/** Routes argv to a subcommand and returns the exit code; never throws. */
export async function runCli(io: CommandIo): Promise<number> {
  const [first] = io.argv
  try {
    if (first === '--version' || first === '-v') {
      io.stdout.write(`${cliVersion()}\n`)
      return EXIT.ok
    }
    if (first === '--help' || first === '-h' || first === 'help') {
      io.stdout.write(helpText())
      return EXIT.ok
    }
    const route = routeOf(io.argv)
    const entry = [...COMMANDS, PRINT].find((command) => command.name === route.command)
    if (!entry) {
      // Only `chat` can be missing (a build without the TUI): flags alone then get the help.
      if (route.argv.length === 0) {
        io.stdout.write(helpText())
        return EXIT.ok
      }
      throw unknownWordError('option', route.argv[0] ?? '', ['--help', '--version'])
    }
    // The chat's prompt box is drawn before the chat (Ink, the engine) loads: see early-composer.ts.
    const early = route.command === 'chat' ? await startEarlyComposer(io, route.argv) : undefined
    try {
      return await (await entry.load()).main({ ...io, argv: route.argv, ...(early ? { early } : {}) })
    } finally {
      // Left on screen only when the chat handed it over; an error is printed on a clean screen.
      early?.dispose()
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`z-engine: ${error.message}\n`)
      return EXIT.usage
    }
    // A system error (a folder that cannot be written, a full disk) is the user's to fix: the
    // message and what to check, not a stack trace. Anything else is a bug worth its stack.
    const code = (error as { code?: unknown } | undefined)?.code
    if (error instanceof Error && typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
      io.stderr.write(
        `z-engine: ${error.message}\n(check that the folder exists and is writable; sessions live under $XDG_DATA_HOME/z-engine, else ~/.local/share/z-engine)\n`,
      )
      return EXIT.failed
    }
    io.stderr.write(`z-engine: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return EXIT.failed
  }
}
