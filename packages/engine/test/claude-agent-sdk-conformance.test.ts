/**
 * Issue 36: conformance with the real Claude Agent SDK (`@anthropic-ai/claude-agent-sdk@0.3.337`, a
 * dev dependency). A program written for it (fixtures/claude-agent-sdk/fix-bug.ts) type-checks
 * against the real package's types and against ours with only its import changed; it fixes a bug
 * over the Anthropic wire (the scripted server, the real Anthropic SDK) with its cost priced; and it
 * does the same bundled by esbuild into one ES module and one CommonJS file (needs `pnpm build`).
 */
import { execFile, execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it, onTestFinished } from 'vitest'
import { startScriptedServer } from '../src/testing.js'
import { buggyProject, cleanupTempDirs, tempDir } from './engine-harness.js'
import { type FixBugReport, fixTheBug } from './fixtures/claude-agent-sdk/fix-bug.js'
import { fixBugScript } from './fixtures/claude-agent-sdk/fix-bug-script.js'

cleanupTempDirs()

const run = promisify(execFile)
const ENGINE = resolve(import.meta.dirname, '..')
const FIXTURES = join(import.meta.dirname, 'fixtures', 'claude-agent-sdk')
const requireHere = createRequire(import.meta.url)

/** What the fix-bug program must have seen, bundled or not. */
function expectFixed(report: FixBugReport & { fixed?: boolean }, scriptIds?: string[]) {
  expect(report.result).toMatchObject({ type: 'result', subtype: 'success', is_error: false })
  expect(report.result?.total_cost_usd).toBeGreaterThan(0)
  expect(Object.keys(report.result?.modelUsage ?? {})).toEqual(['claude-sonnet-4-6'])
  expect(report.toolUseIds).toHaveLength(5)
  if (scriptIds !== undefined) expect(report.toolUseIds).toEqual(scriptIds)
  expect(report.failures).toHaveLength(1)
  expect(report.failures[0]).toMatch(/^Read: .*missing\.js/)
  expect(report.notes).toEqual(['add subtracted'])
  expect(report.aborted).toBe(true)
}

describe('a Claude Agent SDK program on the engine', () => {
  it('fixes a bug over the Anthropic wire with a model alias, acceptEdits and allowedTools, hooks that read the tool-use id, a PostToolUseFailure hook, an in-process MCP tool, close() and AbortError', async () => {
    const project = buggyProject()
    const home = tempDir('ze-sdk-home-')
    const server = await startScriptedServer(fixBugScript(project))
    try {
      const report = await fixTheBug(project, {
        ANTHROPIC_API_KEY: 'x',
        ANTHROPIC_BASE_URL: server.url,
        PATH: process.env.PATH,
        HOME: home,
      })
      // The alias reached the API as the catalog's model.
      expect(server.requests[0]?.body.model).toBe('claude-sonnet-4-6')
      const ids = server.requests
        .flatMap((request) => request.body.messages as Array<{ role: string; content: unknown }>)
        .filter((message) => message.role === 'assistant')
        .flatMap((message) => (Array.isArray(message.content) ? message.content : []))
        .filter((block: { type: string }) => block.type === 'tool_use')
        .map((block: { id: string }) => block.id)
      expectFixed(report, [...new Set(ids)])
      expect(readFileSync(join(project, 'math.js'), 'utf8')).toContain('a + b')
      expect(execFileSync('node', ['test.js'], { cwd: project, encoding: 'utf8' })).toContain('PASS')
    } finally {
      await server.close()
    }
  }, 120_000)

  it('type-checks against the real @anthropic-ai/claude-agent-sdk and against ours, options.agents included', async () => {
    const tsc = requireHere.resolve('typescript/bin/tsc')
    // Inside the package, so both packages, zod and Node's types resolve as in an app that installed them.
    const cache = join(ENGINE, 'node_modules', '.cache')
    mkdirSync(cache, { recursive: true })
    const work = mkdtempSync(join(cache, 'ze-sdk-types-'))
    onTestFinished(() => rmSync(work, { recursive: true, force: true }))
    const source = readFileSync(join(FIXTURES, 'fix-bug.ts'), 'utf8')
    expect(source).toContain("from '@z-engine/engine/claude-agent-sdk'")
    writeFileSync(
      join(work, 'fix-bug-real.ts'),
      source.replace("'@z-engine/engine/claude-agent-sdk'", "'@anthropic-ai/claude-agent-sdk'"),
    )
    writeFileSync(join(work, 'fix-bug-ours.ts'), source)
    // Subagents defined in code: every definition the real SDK accepts is one ours accepts.
    writeFileSync(
      join(work, 'agents.ts'),
      [
        "import type { AgentDefinition as Real, Options as RealOptions } from '@anthropic-ai/claude-agent-sdk'",
        "import type { AgentDefinition as Ours, Options as OurOptions } from '@z-engine/engine/claude-agent-sdk'",
        'declare const real: Real',
        'export const ours: Ours = real',
        "declare const realAgents: RealOptions['agents']",
        "export const ourAgents: OurOptions['agents'] = realAgents",
        "export const reviewer: OurOptions['agents'] = {",
        "  reviewer: { description: 'Reviews a diff.', prompt: 'You review diffs.', tools: ['Read', 'Task'], model: 'haiku' },",
        '}',
        "export const same: RealOptions['agents'] = reviewer",
      ].join('\n'),
    )
    writeFileSync(
      join(work, 'tsconfig.json'),
      JSON.stringify({
        extends: resolve(ENGINE, '../../tsconfig.base.json'),
        compilerOptions: { noEmit: true, declaration: false, customConditions: ['@z-engine/source'] },
        files: ['fix-bug-real.ts', 'fix-bug-ours.ts', 'agents.ts'],
      }),
    )
    const checked = await run(process.execPath, [tsc, '-p', work], { cwd: work }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }),
    )
    expect(checked.stdout).toBe('')
  }, 300_000)

  it('runs the same program on the real Claude Agent SDK (its Claude Code binary) over the same wire server, with the same outcome', async () => {
    // The program with the real SDK's import, and its command with this package's test fakes, written
    // inside the package so both resolve as in an app (run by tsx in a child process).
    const cache = join(ENGINE, 'node_modules', '.cache')
    mkdirSync(cache, { recursive: true })
    const work = mkdtempSync(join(cache, 'ze-sdk-real-'))
    onTestFinished(() => rmSync(work, { recursive: true, force: true }))
    const program = readFileSync(join(FIXTURES, 'fix-bug.ts'), 'utf8')
    writeFileSync(
      join(work, 'fix-bug.ts'),
      program.replace("'@z-engine/engine/claude-agent-sdk'", "'@anthropic-ai/claude-agent-sdk'"),
    )
    writeFileSync(
      join(work, 'main.ts'),
      readFileSync(join(FIXTURES, 'fix-bug-main.ts'), 'utf8')
        .replace("'@z-engine/engine/testing'", `'${join(ENGINE, 'src', 'testing.js')}'`)
        .replace("'./fix-bug-script.js'", `'${join(FIXTURES, 'fix-bug-script.js')}'`),
    )
    const config = tempDir('ze-claude-config-')
    const { stdout } = await run(
      process.execPath,
      ['--conditions=@z-engine/source', '--import', 'tsx', join(work, 'main.ts')],
      {
        cwd: ENGINE,
        env: {
          ...process.env,
          CLAUDE_CONFIG_DIR: config,
          DISABLE_TELEMETRY: '1',
          DISABLE_AUTOUPDATER: '1',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          IS_SANDBOX: '1',
        },
      },
    )
    const real = JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as FixBugReport & {
      fixed: boolean
      test: string
    }
    // What a program observes is the same on both: the bug fixed and the test passing, the MCP tool
    // called, one failed call reported to PostToolUseFailure, the second query ended by AbortError,
    // a successful, priced result, and tool-use ids in the hooks.
    expect(real).toMatchObject({ fixed: true, test: 'PASS', notes: ['add subtracted'], aborted: true })
    expect(real.failures).toHaveLength(1)
    expect(real.failures[0]).toMatch(/^Read: /)
    expect(real.result).toMatchObject({ type: 'result', subtype: 'success', is_error: false })
    expect(real.result?.total_cost_usd).toBeGreaterThan(0)
    expect(real.toolUseIds.length).toBeGreaterThan(0)
    for (const id of real.toolUseIds) expect(id).toMatch(/^toolu_/)
  }, 300_000)

  const built = existsSync(join(ENGINE, 'dist', 'claude-agent-sdk.js'))
  it.runIf(built)(
    'runs bundled by esbuild into one ES module and one CommonJS file (needs pnpm build)',
    async () => {
      const esbuild = createRequire(requireHere.resolve('tsup')).resolve('esbuild')
      const { build } = requireHere(esbuild) as { build(options: Record<string, unknown>): Promise<unknown> }
      for (const format of ['esm', 'cjs'] as const) {
        const dir = tempDir(`ze-sdk-bundle-${format}-`)
        mkdirSync(dir, { recursive: true })
        const outfile = join(dir, format === 'esm' ? 'app.mjs' : 'app.cjs')
        await build({
          entryPoints: [join(FIXTURES, 'fix-bug-main.ts')],
          absWorkingDir: ENGINE,
          bundle: true,
          platform: 'node',
          target: 'node20',
          format,
          outfile,
          logLevel: 'silent',
        })
        const { stdout } = await run(process.execPath, [outfile], { cwd: dir })
        const report = JSON.parse(stdout) as FixBugReport & {
          fixed: boolean
          test: string
          sentModel: string
        }
        expectFixed(report)
        expect(report, format).toMatchObject({ fixed: true, test: 'PASS', sentModel: 'claude-sonnet-4-6' })
      }
    },
    300_000,
  )
})
