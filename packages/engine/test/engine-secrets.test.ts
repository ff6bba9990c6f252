import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { EngineEvent, EventEnvelope } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { Engine, type Session } from '../src/index.js'
import { ScriptedClient, type ScriptSource } from '../src/testing.js'
import { buggyProject, cleanupTempDirs, tempDir } from './engine-harness.js'

cleanupTempDirs()

const ENGINE_KEY = 'sk-ant-api03-engine-own-key-value-0123456789'
const GITHUB_TOKEN = `ghp_${'A1b2C3d4E5'.repeat(3)}abcdef`

async function untilFinished(session: Session, envelopes: EventEnvelope[]): Promise<EngineEvent> {
  for (;;) {
    const finished = envelopes.find(
      (envelope) => envelope.sessionId === session.id && envelope.event.type === 'turnFinished',
    )
    if (finished) return finished.event
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}

async function engineWithEnv(script: ScriptSource, env: Record<string, string>) {
  const home = tempDir('ze-home-')
  const client = new ScriptedClient(script)
  const envelopes: EventEnvelope[] = []
  const engine = await Engine.create({
    home,
    dataDir: join(home, 'data'),
    configDir: join(home, 'config'),
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...env },
    clientFactory: { createClient: () => ({ ok: true, client, provider: 'scripted', model: 'scripted' }) },
    onEvent: (envelope) => envelopes.push(envelope),
  })
  return { engine, client, envelopes, home }
}

describe('secrets never reach a child, the model or the log', () => {
  it('children get the allowlist only, and secrets in output become stable placeholders', async () => {
    const project = buggyProject()
    // The engine's key and a GitHub token sit in a file the command prints (a leaked .env, say).
    writeFileSync(
      join(project, 'leak.txt'),
      `key=${ENGINE_KEY}\ntoken: ${GITHUB_TOKEN}\nagain ${GITHUB_TOKEN}\n`,
    )
    const { engine, client, envelopes, home } = await engineWithEnv(
      [
        {
          blocks: [
            {
              type: 'tool_use',
              name: 'Bash',
              input: { command: 'env; cat leak.txt', description: 'print env and the leak' },
            },
          ],
        },
        { blocks: [{ type: 'text', text: 'done' }] },
      ],
      {
        ANTHROPIC_API_KEY: ENGINE_KEY,
        DATABASE_URL: 'postgres://app:db-password-77@db/app',
        LANG: 'C.UTF-8',
      },
    )
    const session = await engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await untilFinished(session, envelopes)
    await engine.shutdown()

    const seen = JSON.stringify(client.requests.at(-1)!.messages.at(-1))
    // The child's env: allowlisted names only (no engine key, no DATABASE_URL), non-interactive set.
    expect(seen).toContain('LANG=C.UTF-8')
    expect(seen).toContain('GIT_TERMINAL_PROMPT=0')
    expect(seen).not.toContain('ANTHROPIC_API_KEY=')
    expect(seen).not.toContain('DATABASE_URL')
    // The printed secrets: the engine key by its variable, the token by shape, stable numbering.
    expect(seen).toContain('key=[REDACTED:ANTHROPIC_API_KEY:1]')
    expect(seen).toContain('token: [REDACTED:github-token:1]')
    expect(seen).toContain('again [REDACTED:github-token:1]')
    expect(seen).not.toContain(ENGINE_KEY)
    expect(seen).not.toContain(GITHUB_TOKEN)

    // Nothing journaled holds them either (log, agent logs, artifacts).
    const sessionDir = join(home, 'data', 'sessions', session.id)
    const files = readdirSync(sessionDir, { recursive: true, withFileTypes: true }).filter((entry) =>
      entry.isFile(),
    )
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const text = readFileSync(join(file.parentPath, file.name), 'utf8')
      expect(text).not.toContain(ENGINE_KEY)
      expect(text).not.toContain(GITHUB_TOKEN)
    }
    // Live progress shown to clients is redacted too.
    const progress = JSON.stringify(envelopes.filter((envelope) => envelope.event.type === 'toolProgress'))
    expect(progress).not.toContain(GITHUB_TOKEN)
  })
})
