/**
 * Issue 34: every hook the engine starts runs confined like a write-mode Bash command — not only a
 * trusted project's, but the user's own and a plugin's too. Each hook here tries to read a secret
 * planted in the home and to write outside what it may write, and records what happened where it
 * may write (the project; a plugin's data folder). Real bubblewrap.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { addMarketplace, stagePluginInstall } from '../src/plugins-entry.js'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

afterAll(() => cleanupTempDirs())

const bwrapInstalled = ['/usr/bin/bwrap', '/usr/local/bin/bwrap'].some((path) => existsSync(path))

function put(root: string, path: string, text: string, mode = 0o644): void {
  mkdirSync(dirname(join(root, path)), { recursive: true })
  writeFileSync(join(root, path), text)
  chmodSync(join(root, path), mode)
}

/** A hook script: what it read of the secret, whether its writes outside took, into `$1`. */
function probe(outside: string, extra = ''): string {
  return [
    '#!/bin/sh',
    'out="$1"',
    'echo "ran" > "$out"',
    'cat "$HOME/.npmrc" >> "$out" 2>&1',
    `{ echo escaped > "${outside}/escaped-$2.txt"; } 2>> "$out"`,
    '{ echo escaped > "$HOME/.bashrc"; } 2>> "$out"',
    extra,
    'echo done >> "$out"',
    '',
  ].join('\n')
}

describe.skipIf(!bwrapInstalled && process.env.CI === undefined)(
  'hooks run confined, whoever defined them (issue 34)',
  { timeout: 60_000 },
  () => {
    it("the user's own hook: no secret from the home, no write outside the project", async () => {
      const home = tempDir('ze-home-')
      const outside = tempDir('ze-outside-')
      writeFileSync(join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=NPMRC-SECRET\n')
      writeFileSync(join(home, '.bashrc'), '# mine\n')
      // The user's script lives in a folder the view shows only because the hook names it.
      put(home, '.claude/hooks/probe.sh', probe(outside), 0o755)
      mkdirSync(join(home, 'config'), { recursive: true })
      writeFileSync(
        join(home, 'config', 'settings.toml'),
        [
          '[[hooks.UserPromptSubmit]]',
          'command = \'~/.claude/hooks/probe.sh "$CLAUDE_PROJECT_DIR/user-hook.out" user\'',
        ].join('\n'),
      )
      const project = buggyProject()
      const t = await engineWith([{ blocks: [{ type: 'text', text: 'Done.' }] }], home)
      const session = await t.engine.openSession({
        projectRoot: project,
        model: 'scripted:x',
        mode: 'bypass',
      })
      session.send({ type: 'submit', text: 'Hi.' })
      await t.waitFor(session, 'turnFinished')
      const report = readFileSync(join(project, 'user-hook.out'), 'utf8')
      expect(report).toMatch(/^ran\n/)
      expect(report).toContain('done')
      expect(report).not.toContain('NPMRC-SECRET')
      expect(existsSync(join(outside, 'escaped-user.txt'))).toBe(false)
      expect(readFileSync(join(home, '.bashrc'), 'utf8')).toBe('# mine\n')
      await t.engine.shutdown()
    })

    it("a plugin's hook: its folder read-only, its data folder writable, nothing else of the home", async () => {
      const home = tempDir('ze-home-')
      const outside = tempDir('ze-outside-')
      const market = tempDir('ze-market-')
      writeFileSync(join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=NPMRC-SECRET\n')
      writeFileSync(join(home, '.bashrc'), '# mine\n')
      put(
        market,
        '.claude-plugin/marketplace.json',
        JSON.stringify({ name: 'acme', plugins: [{ name: 'guard', source: './guard' }] }),
      )
      put(market, 'guard/.claude-plugin/plugin.json', JSON.stringify({ name: 'guard' }))
      put(
        market,
        'guard/hooks/probe.sh',
        probe(outside, '{ echo changed > "$CLAUDE_PLUGIN_ROOT/hooks/probe.sh"; } 2>> "$out"'),
        0o755,
      )
      put(
        market,
        'guard/hooks/hooks.json',
        JSON.stringify({
          hooks: {
            UserPromptSubmit: [
              {
                hooks: [
                  {
                    type: 'command',
                    command: '"$CLAUDE_PLUGIN_ROOT"/hooks/probe.sh "$CLAUDE_PLUGIN_DATA/probe.out" plugin',
                  },
                ],
              },
            ],
          },
        }),
      )
      const project = buggyProject()
      const t = await engineWith([{ blocks: [{ type: 'text', text: 'Done.' }] }], home)
      const paths = { dataDir: t.engine.paths.dataDir, env: {}, cwd: project }
      expect((await addMarketplace(paths, market)).ok).toBe(true)
      const staged = await stagePluginInstall(
        paths,
        (await t.engine.settings(project)).settings,
        'guard@acme',
      )
      if (!staged.ok) throw new Error(staged.error)
      expect((await staged.value.commit(t.engine.paths.configDir)).ok).toBe(true)
      const loaded = await t.engine.settings(project)
      const root = loaded.plugins[0]!.contents.root
      const data = join(t.engine.paths.dataDir, 'plugins', 'data', 'guard-acme')

      const session = await t.engine.openSession({
        projectRoot: project,
        model: 'scripted:x',
        mode: 'bypass',
      })
      session.send({ type: 'submit', text: 'Hi.' })
      await t.waitFor(session, 'turnFinished')
      const report = readFileSync(join(data, 'probe.out'), 'utf8')
      expect(report).toMatch(/^ran\n/)
      expect(report).toContain('done')
      expect(report).not.toContain('NPMRC-SECRET')
      expect(report).toMatch(/Read-only file system/)
      expect(existsSync(join(outside, 'escaped-plugin.txt'))).toBe(false)
      expect(readFileSync(join(home, '.bashrc'), 'utf8')).toBe('# mine\n')
      expect(readFileSync(join(root, 'hooks', 'probe.sh'), 'utf8')).toContain('#!/bin/sh')
      await t.engine.shutdown()
    })
  },
)
