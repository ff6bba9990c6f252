import { EXIT, UsageError, unknownWordError } from './cli-error.js'
import type { CommandEntry, CommandIo } from './command.js'
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

function helpText(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length), 8)
  const rows = COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`)
  return [
    `z-engine ${cliVersion()} — an embeddable coding agent`,
    '',
    'Usage: z-engine [command] [options]',
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

/** Routes argv to a subcommand and returns the exit code; never throws. */
export async function runCli(io: CommandIo): Promise<number> {
  const [first, ...rest] = io.argv
  try {
    if (first === '--version' || first === '-v') {
      io.stdout.write(`${cliVersion()}\n`)
      return EXIT.ok
    }
    if (first === '--help' || first === '-h' || first === 'help') {
      io.stdout.write(helpText())
      return EXIT.ok
    }
    if (first === undefined) {
      const interactive = COMMANDS.find((command) => command.name === 'chat')
      if (!interactive) {
        io.stdout.write(helpText())
        return EXIT.ok
      }
      return await (await interactive.load()).main({ ...io, argv: [] })
    }
    if (first.startsWith('-')) {
      const interactive = COMMANDS.find((command) => command.name === 'chat')
      if (interactive) return await (await interactive.load()).main(io)
      throw unknownWordError('option', first, ['--help', '--version'])
    }
    const entry = COMMANDS.find((command) => command.name === first)
    if (!entry)
      throw unknownWordError(
        'command',
        first,
        COMMANDS.map((command) => command.name),
      )
    return await (await entry.load()).main({ ...io, argv: rest })
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`z-engine: ${error.message}\n`)
      return EXIT.usage
    }
    io.stderr.write(`z-engine: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`)
    return EXIT.failed
  }
}
