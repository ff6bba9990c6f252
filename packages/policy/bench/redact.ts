// Redaction throughput (MB/s) over realistic tool output: build and test logs, source code, JSON,
// `env` dumps and base64 blobs, with a secret every ~50 KB. Prints plain figures.
import { loadavg } from 'node:os'
import { createRedactor } from '../src/index.js'
import { HITS, NEAR_MISSES } from '../test/redact-corpus.js'

const LINES = [
  'PASS src/engine/session.test.ts (1.234 s)',
  '  ✓ keeps the working directory between calls (45 ms)',
  'npm warn deprecated inflight@1.0.6: This module is not supported, and leaks memory.',
  "src/index.ts:12:7 - error TS2322: Type 'string' is not assignable to type 'number'.",
  'export function resolvePath(root: string, path: string): string { return join(root, path) }',
  '  "version": "1.4.2", "resolved": "https://registry.npmjs.org/ms/-/ms-2.1.3.tgz",',
  'HOME=/home/dev',
  'PATH=/usr/local/bin:/usr/bin:/bin',
  'commit 8f14e45fceea167a5a36dedd4bea2543a2a1f9c0',
  'Date:   Tue Nov 29 10:12:44 2026 +0000',
  'GET http://localhost:3000/api/users/42 200 in 12ms',
  'const token = await getToken(session) // token: string',
  '    at Object.<anonymous> (/home/dev/project/src/main.ts:14:11)',
  ...NEAR_MISSES,
]

function corpus(targetBytes: number, withSecrets: boolean): string {
  const parts: string[] = []
  let size = 0
  let line = 0
  while (size < targetBytes) {
    const text =
      withSecrets && line % 800 === 799 ? HITS[line % HITS.length]!.text : LINES[line % LINES.length]!
    parts.push(text)
    size += text.length + 1
    line++
  }
  return parts.join('\n')
}

function measure(label: string, text: string, chunkBytes: number): void {
  const chunks: string[] = []
  for (let at = 0; at < text.length; at += chunkBytes) chunks.push(text.slice(at, at + chunkBytes))
  const megabytes = Buffer.byteLength(text) / 1e6
  // Warm the regular expressions, then take the best of 5.
  for (const chunk of chunks.slice(0, 50)) createRedactor().redact(chunk)
  let best = Number.POSITIVE_INFINITY
  let bestCpu = Number.POSITIVE_INFINITY
  let replaced = 0
  for (let round = 0; round < 5; round++) {
    const redactor = createRedactor({ known: [{ name: 'OPENAI_API_KEY', value: 'not-in-the-text-1234567' }] })
    const started = performance.now()
    const cpuStart = process.cpuUsage()
    for (const chunk of chunks) redactor.redact(chunk)
    const cpu = process.cpuUsage(cpuStart)
    best = Math.min(best, performance.now() - started)
    bestCpu = Math.min(bestCpu, (cpu.user + cpu.system) / 1000)
    replaced = redactor.count
  }
  console.log(
    `redact ${label}: ${(megabytes / (best / 1000)).toFixed(1)} MB/s wall-clock, ${(megabytes / (bestCpu / 1000)).toFixed(1)} MB per CPU-second (${megabytes.toFixed(1)} MB in ${chunkBytes / 1024} KiB results, ${replaced} distinct secrets, best of 5)`,
  )
}

console.log(`redact: load avg ${loadavg()[0]?.toFixed(1)}`)
measure('mixed output with secrets', corpus(16e6, true), 64 * 1024)
measure('mixed output, no secrets', corpus(16e6, false), 64 * 1024)
measure('one 1 MiB result per call', corpus(16e6, true), 1024 * 1024)
