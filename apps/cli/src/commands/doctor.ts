import { createDefaultClientFactory } from '@z-engine/engine'
import { modelRefFromSettings, parseModelRef, providerSettingsOf } from '@z-engine/engine/models'
import { detectShellSandbox } from '@z-engine/engine/sandbox'
import { EXIT } from '../cli-error.js'
import type { CommandIo } from '../command.js'
import { inspectContext } from '../inspect/inspect-context.js'
import { firstLine, which, writable } from '../inspect/probes.js'
import { printJson, printLines } from '../output.js'

const HELP = `Usage: z-engine doctor [--json] [--cwd DIR]

Checks what a session in DIR needs: the model and its provider key (present or not — keys are
never printed), git, ripgrep, the sandbox backend (bubblewrap or seatbelt), language servers
(typescript-language-server, pyright), and that the data and config folders are writable. The sandbox
check starts a confined process, so a bwrap the kernel refuses to run is reported as missing.
Exit code 1 when something required is missing.
`

/** One finding: `ok`, a `warn` (works without it) or a `fail` (sessions will not work). */
interface Check {
  name: string
  status: 'ok' | 'warn' | 'fail'
  detail: string
}

const KEY_VARIABLES = ['ANTHROPIC_API_KEY', 'OPENAI_API_KEY', 'OPENROUTER_API_KEY'] as const

/** `z-engine doctor`: what is configured and installed, and what is missing. */
export async function main(io: CommandIo): Promise<number> {
  const context = await inspectContext(io, HELP)
  if (!context) return EXIT.ok
  const env = io.env
  const settings = context.loaded.settings
  const checks: Check[] = []

  const ref = modelRefFromSettings(settings)
  const parsed = parseModelRef(ref)
  if (!parsed.ok) checks.push({ name: 'model', status: 'fail', detail: `${ref}: ${parsed.error}` })
  else {
    const providerSettings = providerSettingsOf(settings, parsed.ref.provider)
    const created = createDefaultClientFactory({ env }).createClient(ref, providerSettings)
    checks.push(
      created.ok
        ? { name: 'model', status: 'ok', detail: `${ref} (provider ${created.provider}) is usable` }
        : { name: 'model', status: 'fail', detail: `${ref}: ${created.error}` },
    )
    if (providerSettings?.baseUrl !== undefined)
      checks.push({
        name: 'base url',
        status: 'ok',
        detail: `${parsed.ref.provider}: ${providerSettings.baseUrl}`,
      })
  }
  for (const variable of KEY_VARIABLES) {
    const set = (env[variable] ?? '').trim() !== ''
    checks.push({ name: variable, status: set ? 'ok' : 'warn', detail: set ? 'set' : 'not set' })
  }
  // Gemini takes Google's other name for the key too, as its SDKs do.
  const gemini = ['GEMINI_API_KEY', 'GOOGLE_API_KEY'].find((variable) => (env[variable] ?? '').trim() !== '')
  checks.push({
    name: 'GEMINI_API_KEY',
    status: gemini === undefined ? 'warn' : 'ok',
    detail:
      gemini === undefined
        ? 'not set (nor GOOGLE_API_KEY)'
        : gemini === 'GEMINI_API_KEY'
          ? 'set'
          : 'set as GOOGLE_API_KEY',
  })
  for (const variable of ['ANTHROPIC_BASE_URL', 'OPENAI_BASE_URL', 'GOOGLE_GEMINI_BASE_URL'] as const)
    if ((env[variable] ?? '') !== '')
      checks.push({ name: variable, status: 'ok', detail: env[variable] ?? '' })

  const tools: Array<{ name: string; bin: string; args: string[]; required: boolean; why: string }> = [
    {
      name: 'git',
      bin: 'git',
      args: ['--version'],
      required: true,
      why: 'checkpoints, rewind and worktrees need it',
    },
    {
      name: 'ripgrep',
      bin: 'rg',
      args: ['--version'],
      required: false,
      why: 'Grep and Glob are slower without it',
    },
    {
      name: 'typescript-language-server',
      bin: 'typescript-language-server',
      args: ['--version'],
      required: false,
      why: 'LSP diagnostics for TypeScript',
    },
    {
      name: 'pyright',
      bin: 'pyright-langserver',
      args: ['--version'],
      required: false,
      why: 'LSP diagnostics for Python',
    },
  ]
  for (const tool of tools) {
    const path = await which(tool.bin, env.PATH)
    if (path === undefined) {
      checks.push({
        name: tool.name,
        status: tool.required ? 'fail' : 'warn',
        detail: `not on PATH (${tool.why})`,
      })
      continue
    }
    const version =
      tool.args.length === 0 || tool.bin === 'pyright-langserver'
        ? undefined
        : await firstLine(path, tool.args, env)
    checks.push({ name: tool.name, status: 'ok', detail: version ? `${version} (${path})` : path })
  }
  checks.push(await sandboxCheck(settings.shell.sandbox.enabled, env.PATH ?? ''))
  for (const [label, folder] of [
    ['data dir', context.dataDir],
    ['config dir', context.configDir],
  ] as const) {
    const result = await writable(folder)
    checks.push(
      result === true
        ? { name: label, status: 'ok', detail: `${folder} is writable` }
        : { name: label, status: 'fail', detail: `${folder}: ${result}` },
    )
  }
  for (const notice of context.loaded.notices)
    checks.push({
      name: 'settings',
      status: notice.severity === 'error' ? 'fail' : 'warn',
      detail: notice.message,
    })

  const code = checks.some((check) => check.status === 'fail') ? EXIT.failed : EXIT.ok
  if (context.json) {
    printJson(io, { projectRoot: context.projectRoot, ok: code === EXIT.ok, checks })
    return code
  }
  const mark = { ok: '✓', warn: '!', fail: '✗' } as const
  const width = Math.max(...checks.map((check) => check.name.length))
  printLines(
    io,
    checks.map((check) => `${mark[check.status]} ${check.name.padEnd(width)}  ${check.detail}`),
  )
  return code
}

/**
 * The sandbox line: a backend that actually starts a confined process, or why there is none and
 * how to install one. Missing is a failure only when `[shell.sandbox] enabled` asks for it.
 */
async function sandboxCheck(enabled: boolean, path: string): Promise<Check> {
  const backend = await detectShellSandbox(path)
  const setting = enabled
    ? 'shell.sandbox.enabled: every command runs confined'
    : 'auto-allowed commands run confined; approved ones do not (shell.sandbox.enabled is off)'
  switch (backend.kind) {
    case 'bubblewrap':
      return { name: 'sandbox', status: 'ok', detail: `bubblewrap (${backend.path}) starts; ${setting}` }
    case 'seatbelt':
      return { name: 'sandbox', status: 'ok', detail: `seatbelt (${backend.path}) starts; ${setting}` }
    case 'none':
      return {
        name: 'sandbox',
        status: enabled ? 'fail' : 'warn',
        detail: `${backend.reason}; commands run unconfined. To fix: ${backend.install}`,
      }
    default: {
      const unreachable: never = backend
      throw new Error(`unknown sandbox backend ${JSON.stringify(unreachable)}`)
    }
  }
}
