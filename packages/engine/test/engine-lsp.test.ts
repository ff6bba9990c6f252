/**
 * Language servers on a real Engine (spec 000 "MCP and language servers"): the real
 * typescript-language-server (with typescript) and pyright from npm, started lazily by a session.
 * One scripted turn per language, so each server starts once: a Write with a type error gets the
 * diagnostic appended, and the LSP tool answers definition, references, hover and rename preview.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs'
import { delimiter, dirname, join, resolve } from 'node:path'
import type { EngineEvent } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import type { ScriptedResponse } from '../src/testing.js'
import { cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

// The servers come from this package's devDependencies.
const BIN = resolve(import.meta.dirname, '..', 'node_modules', '.bin')
const PATH = `${BIN}${delimiter}${process.env.PATH ?? '/usr/bin:/bin'}`
/** The server's bin script (what `node_modules/.bin/typescript-language-server` links to). */
const SERVER_CLI = realpathSync(
  resolve(import.meta.dirname, '..', 'node_modules', 'typescript-language-server', 'lib', 'cli.mjs'),
)

const call = (name: string, input: Record<string, unknown>): ScriptedResponse => ({
  blocks: [{ type: 'tool_use', name, input }],
})

/** A home whose settings give servers time to start on a busy machine. */
function home(): string {
  const dir = tempDir('ze-home-')
  mkdirSync(join(dir, 'config'), { recursive: true })
  writeFileSync(join(dir, 'config', 'settings.toml'), '[lsp]\ndiagnostics_wait_ms = 30000\n')
  return dir
}

/** Runs one turn of `responses` and returns each tool call's finished output, in order. */
async function runTurn(
  project: string,
  responses: ScriptedResponse[],
  options: { path?: string; trusted?: boolean } = {},
) {
  const t = await engineWith([...responses, { blocks: [{ type: 'text', text: 'done' }] }], home(), {
    env: { PATH: options.path ?? PATH, HOME: tempDir('ze-user-') },
  })
  // Language servers start only in a trusted workspace (issue 34).
  if (options.trusted !== false) await t.engine.trustWorkspace(project)
  const session = await t.engine.openSession({
    projectRoot: project,
    model: 'scripted:x',
    mode: 'acceptEdits',
  })
  session.send({ type: 'submit', text: 'go' })
  await t.waitFor(session, 'turnFinished')
  const outputs = t
    .events(session, 'toolFinished')
    .map((event) => (event.type === 'toolFinished' ? `${event.status}: ${event.output}` : ''))
  const tools = (t.client.requests[0]?.tools ?? []).map((tool) => tool.name)
  await t.engine.shutdown()
  return { outputs, tools, events: t.events(session) as EngineEvent[] }
}

describe('language servers on a real engine', () => {
  it('TypeScript: a Write with a type error gets the diagnostic; definition, references, hover and rename preview answer', async () => {
    const project = tempDir('ze-ts-')
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { strict: true, target: 'es2022', module: 'nodenext' } }),
    )
    writeFileSync(join(project, 'package.json'), '{"type":"module"}\n')
    writeFileSync(
      join(project, 'math.ts'),
      'export function add(a: number, b: number): number {\n  return a + b\n}\n',
    )
    const main = join(project, 'main.ts')
    const { outputs, tools } = await runTurn(project, [
      call('Write', {
        file_path: main,
        content: "import { add } from './math.js'\n\nconst total: string = add(1, 2)\nconsole.log(total)\n",
      }),
      call('LSP', { operation: 'goToDefinition', filePath: main, line: 3, character: 23 }),
      call('LSP', { operation: 'findReferences', filePath: join(project, 'math.ts'), symbol: 'add' }),
      call('LSP', { operation: 'hover', filePath: main, symbol: 'add', line: 3 }),
      call('LSP', {
        operation: 'renamePreview',
        filePath: join(project, 'math.ts'),
        symbol: 'add',
        newName: 'sum',
      }),
      call('LSP', { operation: 'diagnostics', filePath: join(project, 'other.go') }),
    ])
    expect(tools).toContain('LSP')
    expect(outputs[0]).toContain('File created at')
    expect(outputs[0]).toMatch(
      /typescript reports 1 error in main\.ts:\nmain\.ts:3:7 error: Type 'number' is not assignable to type 'string'\. \(typescript 2322\)/,
    )
    expect(outputs[1]).toContain('math.ts:1:17: export function add(a: number, b: number): number {')
    expect(outputs[2]).toMatch(/^ok: 3 references:\nmath.ts:1:17: /)
    expect(outputs[2]).toContain('main.ts:3:23: const total: string = add(1, 2)')
    expect(outputs[3]).toContain('(alias) add(a: number, b: number): number')
    expect(outputs[4]).toMatch(/Renaming to sum would change \d+ places in 2 files \(nothing was changed\)/)
    // gopls is not installed here: the result names what to install.
    expect(outputs[5]).toContain(
      'No language server for .go files is installed: install go install golang.org/x/tools/gopls@latest',
    )
  }, 120_000)

  it('Python: pyright reports a type error after a Write and answers definition and references', async () => {
    const project = tempDir('ze-py-')
    writeFileSync(join(project, 'greet.py'), 'def greet(name: str) -> str:\n    return "hi " + name\n')
    const app = join(project, 'app.py')
    const { outputs } = await runTurn(project, [
      call('Write', { file_path: app, content: 'from greet import greet\n\ncount: int = greet("x")\n' }),
      call('LSP', { operation: 'goToDefinition', filePath: app, symbol: 'greet', line: 3 }),
      call('LSP', { operation: 'findReferences', filePath: join(project, 'greet.py'), symbol: 'greet' }),
    ])
    expect(outputs[0]).toMatch(
      /pyright reports 1 error in app\.py:\napp\.py:3:14 error: .*"str" is not assignable to declared type "int"/,
    )
    expect(outputs[1]).toContain('greet.py:1:5: def greet(name: str) -> str:')
    expect(outputs[2]).toContain('app.py:3:14: count: int = greet("x")')
  }, 120_000)

  it('uses the server a trusted project installed in its node_modules/.bin; untrusted, the LSP tool is not offered', async () => {
    const project = tempDir('ze-ts-local-')
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true } }))
    writeFileSync(join(project, 'package.json'), '{"type":"module"}\n')
    // The project's own install as npm leaves it (a link to the package's bin script), not on PATH.
    const local = join(project, 'node_modules', '.bin')
    mkdirSync(local, { recursive: true })
    symlinkSync(SERVER_CLI, join(local, 'typescript-language-server'))
    const main = join(project, 'main.ts')
    const write = call('Write', { file_path: main, content: 'const total: string = 1\nconsole.log(total)\n' })
    const withoutServers = `${dirname(process.execPath)}${delimiter}/usr/bin${delimiter}/bin`
    const trusted = await runTurn(project, [write], { path: withoutServers })
    expect(trusted.tools).toContain('LSP')
    expect(trusted.outputs[0]).toMatch(
      /File created at .*\ntypescript reports 1 error in main\.ts:\nmain\.ts:1:7 error: /,
    )

    const other = tempDir('ze-ts-local-untrusted-')
    mkdirSync(join(other, 'node_modules', '.bin'), { recursive: true })
    symlinkSync(SERVER_CLI, join(other, 'node_modules', '.bin', 'typescript-language-server'))
    const untrusted = await runTurn(other, [], { path: withoutServers, trusted: false })
    expect(untrusted.tools).not.toContain('LSP')
  }, 120_000)
})
