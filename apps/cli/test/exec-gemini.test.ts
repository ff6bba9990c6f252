/**
 * Issue 21 "a scripted Gemini session fixes a bug end to end over the real SDK against a local
 * server speaking Gemini's streaming wire format": the built CLI's `exec --model gemini/…` drives
 * `@google/genai` against the scripted server (Read, Edit, answer), and its JSON output reports the
 * cached tokens and what they saved at the catalog's prices. With `[provider.gemini] cache_control`
 * the same session runs over an explicit context cache ("context caching hints").
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { startScriptedServer } from '@z-engine/engine/testing'
import { describe, expect, it } from 'vitest'
import { HAVE_DIST, runChild, sandbox } from './helpers.js'

describe.runIf(HAVE_DIST)(
  'z-engine exec --model gemini/… (built dist, real SDK, scripted Gemini server)',
  () => {
    it('fixes the bug (Read, Edit, answer) and reports cached tokens and the saving', async () => {
      const box = await sandbox()
      const file = join(box.project, 'math.js')
      await writeFile(file, 'export function add(a, b) {\n  return a - b\n}\n')
      const server = await startScriptedServer([
        {
          blocks: [
            { type: 'thinking', thinking: 'The subtraction looks wrong; read it first.' },
            { type: 'tool_use', name: 'Read', input: { file_path: file } },
          ],
          usage: { inputTokens: 2_000, outputTokens: 40 },
        },
        {
          blocks: [
            {
              type: 'tool_use',
              name: 'Edit',
              input: { file_path: file, old_string: 'a - b', new_string: 'a + b' },
            },
          ],
          usage: { inputTokens: 500, outputTokens: 30, cacheReadTokens: 2_000 },
        },
        {
          blocks: [{ type: 'text', text: 'Fixed: add now adds.' }],
          usage: { inputTokens: 300, outputTokens: 10, cacheReadTokens: 2_600 },
        },
      ])
      try {
        const { code, stdout, stderr } = await runChild(
          [
            'exec',
            '--model',
            'gemini/gemini-2.5-pro',
            '--permission-mode',
            'acceptEdits',
            '--output-format',
            'json',
            'The add test fails. Fix it.',
          ],
          {
            cwd: box.project,
            env: { ...box.env, GOOGLE_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl },
          },
        )
        expect(code, stderr).toBe(0)
        expect(await readFile(file, 'utf8')).toContain('return a + b')
        const result = JSON.parse(stdout) as Record<string, unknown>
        expect(result).toMatchObject({
          outcome: 'done',
          result: 'Fixed: add now adds.',
          tool_calls: 2,
          usage: { input_tokens: 2_800, output_tokens: 80, cache_read_tokens: 4_600, cache_write_tokens: 0 },
        })
        // Gemini 2.5 Pro: input $1.25/M, cached input $0.125/M, output $10/M.
        expect(result.cache_savings_usd).toBeCloseTo((4_600 * (1.25 - 0.125)) / 1e6, 9)
        expect(result.cost_usd).toBeCloseTo((2_800 * 1.25 + 4_600 * 0.125 + 80 * 10) / 1e6, 9)

        expect(server.requests.map((request) => request.path)).toEqual(
          Array(3).fill('/v1beta/models/gemini-2.5-pro:streamGenerateContent'),
        )
        expect(server.requests.every((request) => request.headers['x-goog-api-key'] === 'test-key')).toBe(
          true,
        )
        // The last request carries the whole exchange: the call with its thought signature, and the
        // Read result as a functionResponse.
        const contents = server.requests[2]!.body.contents as Array<{
          role: string
          parts: Array<Record<string, unknown>>
        }>
        const parts = contents.flatMap((content) => content.parts)
        expect(parts.find((part) => part.functionCall !== undefined)).toMatchObject({
          functionCall: { name: 'Read' },
          thoughtSignature: expect.any(String),
        })
        expect(JSON.stringify(parts.filter((part) => part.functionResponse !== undefined))).toContain('a - b')
      } finally {
        await server.close()
      }
    }, 120_000)

    it('with cache_control on, caches the stable prefix, names it on every request and deletes it at the end', async () => {
      const box = await sandbox()
      const file = join(box.project, 'math.js')
      await writeFile(file, 'export function add(a, b) {\n  return a - b\n}\n')
      const config = join(box.root, 'config', 'z-engine')
      await mkdir(config, { recursive: true })
      await writeFile(join(config, 'settings.toml'), '[provider.gemini]\ncache_control = true\n')
      const server = await startScriptedServer([
        {
          blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: file } }],
          usage: { inputTokens: 20, outputTokens: 40 },
        },
        {
          blocks: [
            {
              type: 'tool_use',
              name: 'Edit',
              input: { file_path: file, old_string: 'a - b', new_string: 'a + b' },
            },
          ],
          usage: { inputTokens: 200, outputTokens: 30 },
        },
        { blocks: [{ type: 'text', text: 'Fixed.' }], usage: { inputTokens: 300, outputTokens: 10 } },
      ])
      try {
        const { code, stdout, stderr } = await runChild(
          [
            'exec',
            '--model',
            'gemini/gemini-2.5-pro',
            '--permission-mode',
            'acceptEdits',
            '--output-format',
            'json',
            'Fix add.',
          ],
          {
            cwd: box.project,
            env: { ...box.env, GOOGLE_API_KEY: 'test-key', GOOGLE_GEMINI_BASE_URL: server.geminiBaseUrl },
          },
        )
        expect(code, stderr).toBe(0)
        expect(await readFile(file, 'utf8')).toContain('return a + b')
        const calls = server.requests.map(
          (request) => `${request.method} ${request.path.replace(/scripted-\d+$/, 'N')}`,
        )
        expect(calls).toEqual([
          'POST /v1beta/cachedContents',
          ...Array(3).fill('POST /v1beta/models/gemini-2.5-pro:streamGenerateContent'),
          'DELETE /v1beta/cachedContents/N',
        ])
        const created = server.requests[0]!.body
        expect(created).toMatchObject({ model: 'models/gemini-2.5-pro', ttl: '300s' })
        expect(JSON.stringify(created.tools)).toContain('"name":"Edit"')
        const generations = server.requests.slice(1, 4).map((request) => request.body)
        for (const body of generations) {
          expect(body.cachedContent).toBe('cachedContents/scripted-1')
          expect(body.systemInstruction).toBeUndefined()
          expect(body.tools).toBeUndefined()
        }
        // The cache is gone: the session deleted it when it closed.
        expect(server.geminiCaches).toEqual([])
        const result = JSON.parse(stdout) as { usage: Record<string, number>; cache_savings_usd: number }
        // Gemini 2.5 Pro: input $1.25/M, cached input $0.125/M; the write costs input plus one cached read.
        const cacheTokens = result.usage.cache_write_tokens ?? 0
        expect(cacheTokens).toBeGreaterThan(4_096)
        expect(result.usage).toMatchObject({ input_tokens: 520, cache_read_tokens: 2 * cacheTokens })
        expect(result.cache_savings_usd).toBeCloseTo(
          (2 * cacheTokens * (1.25 - 0.125) - cacheTokens * 0.125) / 1e6,
          9,
        )
      } finally {
        await server.close()
      }
    }, 120_000)
  },
)
