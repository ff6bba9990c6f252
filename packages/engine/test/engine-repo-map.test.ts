/**
 * Issue 17 "Nothing blocks the first request but what it needs": the repository map is built in the
 * background. In a project never seen before the first request goes out without it, the finished map
 * reaches the model as a reminder at the tail of the next user message — the next tool results in a
 * turn (issue 40), else the next prompt (the system prompt stays byte-identical),
 * and it is persisted in the data dir; the next session in that project has it in the system prompt
 * of its first request.
 */
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { ModelRequest } from '../src/index.js'
import { repoMapCacheFile } from '../src/repo-map/repo-map-store.js'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

const MAP = '<repository-map>'
const systemText = (request: ModelRequest) => request.system.map((section) => section.text).join('\n')
const lastUserText = (request: ModelRequest) => JSON.stringify(request.messages.at(-1)?.content ?? [])

async function until(condition: () => boolean): Promise<void> {
  // A ceiling for a loaded machine: it returns as soon as the condition holds.
  const deadline = Date.now() + 90_000
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

describe('the repository map off the request path', () => {
  it('reaches a new project as a reminder and the next session from the persisted cache', async () => {
    const project = buggyProject()
    writeFileSync(join(project, 'util.js'), 'export function double(x) {\n  return x * 2\n}\n')
    const home = tempDir('ze-home-')
    const answer = (text: string) => ({ blocks: [{ type: 'text' as const, text }] })
    const first = await engineWith([answer('one'), answer('two')], home)
    const cacheFile = repoMapCacheFile(first.engine.paths.dataDir, project)
    const session = await first.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'Hello.' })
    await first.waitFor(session, 'turnFinished')
    await until(() => existsSync(cacheFile))
    session.send({ type: 'submit', text: 'Again.' })
    await first.waitFor(session, 'turnFinished', 2)
    await first.engine.shutdown()

    const [opening, later] = first.client.requests
    // The first request did not wait for tree-sitter; the system prompt never changed.
    expect(systemText(opening!)).not.toContain(MAP)
    expect(systemText(later!)).toBe(systemText(opening!))
    // The finished map came as a reminder with the next user message.
    expect(lastUserText(later!)).toContain(MAP)
    expect(lastUserText(later!)).toContain('util.js:')
    expect(lastUserText(later!)).toContain('function double(x)')

    // A second session in the same project starts with the map, from the cache.
    const second = await engineWith([answer('three')], home)
    const again = await second.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    again.send({ type: 'submit', text: 'Hello again.' })
    await second.waitFor(again, 'turnFinished')
    await second.engine.shutdown()
    const request = second.client.requests[0]!
    expect(systemText(request)).toContain(MAP)
    expect(systemText(request)).toContain('function double(x)')
    expect(lastUserText(request)).not.toContain(MAP)
  })

  it('a late map goes out with the next tool results, at their tail, in the same turn', async () => {
    const project = buggyProject()
    writeFileSync(join(project, 'util.js'), 'export function double(x) {\n  return x * 2\n}\n')
    const home = tempDir('ze-home-')
    let cacheFile = ''
    // The model answers the first request with a Read only once the map is built (its outlines are
    // persisted just before it is queued): the test decides that the map is late, not the machine.
    const script = async (_request: ModelRequest, index: number) => {
      if (index === 0) {
        await until(() => existsSync(cacheFile))
        return {
          blocks: [
            { type: 'tool_use' as const, name: 'Read', input: { file_path: join(project, 'math.js') } },
          ],
        }
      }
      return { blocks: [{ type: 'text' as const, text: 'Read it.' }] }
    }
    const harness = await engineWith(script, home)
    cacheFile = repoMapCacheFile(harness.engine.paths.dataDir, project)
    const session = await harness.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'What does math.js do?' })
    await harness.waitFor(session, 'turnFinished')
    await harness.engine.shutdown()

    const [opening, afterRead] = harness.client.requests
    expect(harness.client.requests).toHaveLength(2)
    expect(systemText(opening!)).not.toContain(MAP)
    // The prefix the provider cached is untouched: same system prompt, same earlier messages.
    expect(systemText(afterRead!)).toBe(systemText(opening!))
    expect(afterRead!.messages.slice(0, opening!.messages.length)).toEqual(opening!.messages)
    // The tool results' message: the Read's result first, the map as a reminder at its tail.
    const results = afterRead!.messages.at(-1)!
    expect(results.role).toBe('user')
    const blocks = results.content as { type: string; text?: string }[]
    expect(blocks[0]!.type).toBe('tool_result')
    expect(blocks.at(-1)!.type).toBe('text')
    expect(blocks.at(-1)!.text).toContain(MAP)
    expect(blocks.at(-1)!.text).toContain('function double(x)')
    expect(blocks.slice(0, -1).some((block) => JSON.stringify(block).includes(MAP))).toBe(false)
  })
})
