/**
 * Issue 17: `z-engine exec` loads only what its session uses. A session on an Anthropic model with no
 * MCP servers, running a Read and an Edit, must not load the MCP client package (and zod under it), ajv's
 * compiler (built-in tools validate with precompiled validators), the OpenAI SDK, nor Ink/React.
 * Every module the process loads is recorded by a loader hook (ES modules) and a `Module._load`
 * wrapper (CommonJS); the bundle's chunks are mapped back to their sources with their source maps.
 */
import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { startScriptedServer } from '@z-engine/engine/testing'
import { describe, expect, it } from 'vitest'
import { BIN, HAVE_DIST, sandbox } from './helpers.js'

const run = promisify(execFile)

// Runs in the loader thread: every resolved ES module URL, one a line.
const HOOKS = `import { appendFileSync } from 'node:fs'
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context)
  appendFileSync(process.env.Z_MODULE_LOG, 'esm ' + result.url + '\\n')
  return result
}
`
// Runs first in the main thread: registers the hooks and records CommonJS requests.
const PRELOAD = `import { register, createRequire } from 'node:module'
import { appendFileSync } from 'node:fs'
register('./hooks.mjs', import.meta.url)
const Module = createRequire(import.meta.url)('node:module')
const load = Module._load
Module._load = function (request, ...rest) {
  appendFileSync(process.env.Z_MODULE_LOG, 'cjs ' + request + '\\n')
  return load.call(this, request, ...rest)
}
`

/** The package a source path belongs to (`@scope/name` or `name`), if it is a dependency. */
function packageOf(source: string): string | undefined {
  const match = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(source)
  return match?.[1]
}

describe.runIf(HAVE_DIST)('modules an exec session loads (needs pnpm build)', () => {
  it('an Anthropic session without MCP servers loads no MCP client, zod, ajv compiler, OpenAI SDK or Ink/React', async () => {
    const box = await sandbox()
    await writeFile(join(box.project, 'add.js'), 'export const add = (a, b) => a - b\n')
    const server = await startScriptedServer([
      { blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: 'add.js' } }] },
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'Edit',
            input: { file_path: 'add.js', old_string: 'a - b', new_string: 'a + b' },
          },
        ],
      },
      { blocks: [{ type: 'text', text: 'fixed' }] },
    ])
    const log = join(box.root, 'modules.log')
    await writeFile(join(box.root, 'hooks.mjs'), HOOKS)
    await writeFile(join(box.root, 'preload.mjs'), PRELOAD)
    try {
      const exec = await run(
        process.execPath,
        [
          '--import',
          join(box.root, 'preload.mjs'),
          BIN,
          'exec',
          '--model',
          'anthropic/claude-sonnet-4-5',
          '--permission-mode',
          'acceptEdits',
          '--output-format',
          'json',
          'fix add.js',
        ],
        {
          cwd: box.project,
          env: { ...box.env, Z_MODULE_LOG: log, ANTHROPIC_BASE_URL: server.url, ANTHROPIC_API_KEY: 'test' },
        },
      )
      expect(JSON.parse(exec.stdout)).toMatchObject({ outcome: 'done', result: 'fixed' })
      expect(readFileSync(join(box.project, 'add.js'), 'utf8')).toContain('a + b')
    } finally {
      await server.close()
    }

    const loaded = new Set<string>()
    for (const line of readFileSync(log, 'utf8').split('\n')) {
      const [kind, what] = [line.slice(0, 3), line.slice(4)]
      if (kind === 'cjs') loaded.add(packageOf(`node_modules/${what}/`) ?? what)
      if (kind !== 'esm' || !what.startsWith('file:')) continue
      const file = fileURLToPath(what)
      const own = packageOf(file)
      if (own) loaded.add(own)
      // A chunk of the CLI's bundle: the packages it was built from.
      if (existsSync(`${file}.map`)) {
        const map = JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }
        for (const source of map.sources) {
          const bundled = packageOf(source)
          if (bundled) loaded.add(bundled)
        }
      }
    }
    expect(loaded).toContain('@anthropic-ai/sdk')
    for (const absent of [
      '@modelcontextprotocol/client',
      '@modelcontextprotocol/sdk',
      'zod',
      'ajv',
      'openai',
      'ink',
      'react',
    ])
      expect(loaded, absent).not.toContain(absent)
  })
})
