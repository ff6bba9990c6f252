import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { createServer } from 'node:net'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DEFAULT_TOOL_LIMITS, type ToolCtx } from '@z-engine/tools'

const require = createRequire(import.meta.url)

/** The entry script of an MCP server package installed from npm (devDependencies). */
export function npmServerEntry(name: 'server-everything' | 'server-filesystem'): string {
  const manifest = {
    'server-everything': '@modelcontextprotocol/server-everything/package.json',
    'server-filesystem': '@modelcontextprotocol/server-filesystem/package.json',
  }[name]
  return join(dirname(require.resolve(manifest)), 'dist', 'index.js')
}

/** Our own fault-injecting server (test/fixtures/mcp/fault-server.mjs). */
export const FAULT_SERVER = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'test',
  'fixtures',
  'mcp',
  'fault-server.mjs',
)

/** The little of a ToolCtx MCP calls use, recording progress and spills. */
export function mcpTestCtx(): ToolCtx & { progressed: string[]; spilled: string[] } {
  const progressed: string[] = []
  const spilled: string[] = []
  const ctx = {
    vision: true,
    limits: DEFAULT_TOOL_LIMITS,
    progress: (update: { message?: string }) => progressed.push(update.message ?? ''),
    spill: async (content: string) => {
      spilled.push(content)
      return `/artifacts/${spilled.length}.txt`
    },
    progressed,
    spilled,
  }
  return ctx as unknown as ToolCtx & { progressed: string[]; spilled: string[] }
}

/** A free TCP port on localhost. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/** Starts server-everything in an HTTP mode on a free port; resolves once it listens. */
export async function startEverythingHttp(
  mode: 'streamableHttp' | 'sse',
): Promise<{ url: string; stop: () => void }> {
  const port = await freePort()
  const child = spawn(process.execPath, [npmServerEntry('server-everything'), mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  await new Promise<void>((resolve, reject) => {
    let seen = ''
    const timer = setTimeout(
      () => reject(new Error(`server-everything ${mode} did not listen: ${seen}`)),
      20_000,
    )
    child.stderr.on('data', (chunk: Buffer) => {
      seen += chunk.toString()
      if (/listening|running on port/i.test(seen)) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => reject(new Error(`server-everything ${mode} exited ${code}: ${seen}`)))
  })
  return {
    url: `http://127.0.0.1:${port}/${mode === 'sse' ? 'sse' : 'mcp'}`,
    stop: () => child.kill('SIGKILL'),
  }
}
