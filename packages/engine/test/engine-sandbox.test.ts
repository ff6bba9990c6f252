/**
 * Spec 000 "Sandbox" on a real engine with real bubblewrap: commands the policy auto-allows run
 * confined even with `[shell.sandbox]` off; approved commands follow `[shell.sandbox]`; bypass mode
 * with the sandbox on cannot plant a git hook; without a backend one warning says why (once the
 * first request is out: the probe is off the startup path, issue 17).
 */
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Message } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith, tempDir } from './engine-harness.js'

cleanupTempDirs()

const bwrapInstalled = ['/usr/bin/bwrap', '/usr/local/bin/bwrap'].some((path) => existsSync(path))
const run = bwrapInstalled || process.env.CI !== undefined

function homeWithSettings(toml: string): string {
  const home = tempDir('ze-home-')
  mkdirSync(join(home, 'config'), { recursive: true })
  writeFileSync(join(home, 'config', 'settings.toml'), toml)
  return home
}

const bash = (command: string) => ({
  blocks: [{ type: 'tool_use' as const, name: 'Bash', input: { command, description: 'run' } }],
})
const textOf = (message: Message | undefined) => JSON.stringify(message?.content ?? [])

describe.skipIf(!run)('the shell sandbox on a real engine (bubblewrap)', () => {
  it('with [shell.sandbox] off, a proven read-only command runs confined; an approved one does not', async () => {
    const project = buggyProject()
    const t = await engineWith([
      bash('printenv TMPDIR'),
      bash('touch approved.txt && printenv TMPDIR; echo end'),
      { blocks: [{ type: 'text', text: 'done' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    const ask = await t.waitFor(session, 'approvalRequested')
    if (ask.type !== 'approvalRequested') throw new Error('unexpected')
    session.send({ type: 'resolveApproval', approvalId: ask.request.id, decision: { type: 'allowOnce' } })
    await t.waitFor(session, 'turnFinished')
    expect(textOf(t.client.requests[1]!.messages.at(-1))).toContain('z-engine-sandbox-')
    const approved = textOf(t.client.requests[2]!.messages.at(-1))
    expect(approved).toContain('end')
    expect(approved).not.toContain('z-engine-sandbox-')
    expect(existsSync(join(project, 'approved.txt'))).toBe(true)
    expect(
      t.events(session, 'notice').filter((n) => n.type === 'notice' && n.code === 'sandbox_unavailable'),
    ).toEqual([])
    await t.engine.shutdown()
  })

  it('bypass mode with [shell.sandbox] on: a command cannot plant a git hook or write outside the project', async () => {
    const project = buggyProject()
    const outside = tempDir('ze-outside-')
    const home = homeWithSettings('[shell.sandbox]\nenabled = true\n')
    const t = await engineWith(
      [
        bash(
          `echo evil > .git/hooks/pre-commit; echo x > ${outside}/leak.txt; echo ok > inside.txt; echo end`,
        ),
        { blocks: [{ type: 'text', text: 'done' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'go' })
    await t.waitFor(session, 'turnFinished')
    expect(existsSync(join(project, '.git', 'hooks', 'pre-commit'))).toBe(false)
    expect(existsSync(join(outside, 'leak.txt'))).toBe(false)
    expect(readFileSync(join(project, 'inside.txt'), 'utf8')).toBe('ok\n')
    expect(textOf(t.client.requests[1]!.messages.at(-1))).toContain('Read-only file system')
    await t.engine.shutdown()
  })

  it('the confined view masks Read deny-ruled files and the engine\'s folders, even under read_paths = ["~"] (issue 34)', async () => {
    const project = buggyProject()
    writeFileSync(join(project, '.env'), 'API_KEY=ENV-SECRET\n')
    const home = homeWithSettings(
      '# CONFIG-MARKER\n[shell.sandbox]\nenabled = true\nread_paths = ["~"]\n[permissions]\ndeny = ["Read(./.env)"]\n',
    )
    writeFileSync(join(home, 'notes.txt'), 'visible notes\n')
    const script = `for (const f of ["."+"env", process.env.HOME+"/config/settings.toml", process.env.HOME+"/notes.txt"]) { try { console.log(require("fs").readFileSync(f, "utf8")) } catch (e) { console.log(e.code) } }`
    const t = await engineWith(
      [bash(`node -e '${script}'; echo end`), { blocks: [{ type: 'text', text: 'done' }] }],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x', mode: 'bypass' })
    session.send({ type: 'submit', text: 'go' })
    await t.waitFor(session, 'turnFinished')
    const output = textOf(t.client.requests[1]!.messages.at(-1))
    expect(output).toContain('end')
    expect(output).toContain('visible notes')
    expect(output).not.toContain('ENV-SECRET')
    expect(output).not.toContain('CONFIG-MARKER')
    await t.engine.shutdown()
  })

  it("a trusted project's hook runs confined even with [shell.sandbox] off: no ~/.npmrc, no write outside (issue 34)", async () => {
    const project = buggyProject()
    const outside = tempDir('ze-outside-')
    const home = homeWithSettings('')
    writeFileSync(join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=NPMRC-SECRET\n')
    mkdirSync(join(project, '.z-engine'), { recursive: true })
    writeFileSync(
      join(project, '.z-engine', 'settings.toml'),
      `[[hooks.UserPromptSubmit]]\ncommand = "cat $HOME/.npmrc > hook-out.txt 2>&1; echo x > ${outside}/escaped.txt; echo ran >> hook-out.txt"\n`,
    )
    const t = await engineWith([{ blocks: [{ type: 'text', text: 'done' }] }], home)
    await t.engine.trustWorkspace(project)
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await t.waitFor(session, 'turnFinished')
    const out = readFileSync(join(project, 'hook-out.txt'), 'utf8')
    expect(out).toContain('ran')
    expect(out).not.toContain('NPMRC-SECRET')
    expect(existsSync(join(outside, 'escaped.txt'))).toBe(false)
    await t.engine.shutdown()
  })

  it('a rule-allowed command runs confined with [shell.sandbox] off (issue 34); git runs its hooks; excluded_commands runs outside', async () => {
    const project = buggyProject()
    execFileSync('git', ['config', 'user.email', 't@t'], { cwd: project })
    execFileSync('git', ['config', 'user.name', 't'], { cwd: project })
    writeFileSync(join(project, '.git', 'hooks', 'pre-commit'), '#!/bin/sh\necho hook > hook-ran.txt\n', {
      mode: 0o755,
    })
    const outside = tempDir('ze-outside-')
    const home = homeWithSettings(
      '[permissions]\nallow = ["Bash(node:*)", "Bash(git commit:*)", "Bash(sh outside.sh)", "Bash(sh mixed.sh)"]\n[shell.sandbox]\nexcluded_commands = ["sh outside.sh", "sh mixed.sh"]\n',
    )
    writeFileSync(join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=NPMRC-SECRET\n')
    writeFileSync(join(project, 'outside.sh'), `touch ${outside}/excluded.txt\n`)
    writeFileSync(join(project, 'mixed.sh'), `touch ${outside}/mixed.txt\n`)
    const script = `const fs = require("fs"); try { fs.writeFileSync("${outside}/leak.txt", "x"); console.log("WROTE") } catch (e) { console.log(e.code) } try { console.log(fs.readFileSync(process.env.HOME + "/.npmrc", "utf8")) } catch (e) { console.log(e.code) }`
    const t = await engineWith(
      [
        bash(`node -e '${script}'`),
        bash('git commit -q --allow-empty -m rule'),
        bash('sh outside.sh'),
        // Mixed: node is not excluded, so the whole line runs confined, and the failure says why.
        bash(`node -e 0 && sh mixed.sh`),
        { blocks: [{ type: 'text', text: 'done' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await t.waitFor(session, 'turnFinished')
    expect(t.events(session, 'approvalRequested')).toEqual([])
    const node = textOf(t.client.requests[1]!.messages.at(-1))
    expect(node).not.toContain('WROTE')
    expect(node).not.toContain('NPMRC-SECRET')
    expect(existsSync(join(outside, 'leak.txt'))).toBe(false)
    // The user allowed `git commit`: the repository's hooks run (confined), not neutralised.
    expect(readFileSync(join(project, 'hook-ran.txt'), 'utf8')).toBe('hook\n')
    expect(execFileSync('git', ['log', '-1', '--format=%s'], { cwd: project }).toString()).toBe('rule\n')
    // `sh outside.sh` is in excluded_commands: it ran outside the sandbox.
    expect(existsSync(join(outside, 'excluded.txt'))).toBe(true)
    expect(existsSync(join(outside, 'mixed.txt'))).toBe(false)
    expect(textOf(t.client.requests[4]!.messages.at(-1))).toContain(
      'run an excluded command on a line of its own',
    )
    await t.engine.shutdown()
  })

  it("the user's own ! lines are confined by the decision a Bash call would get (issue 34); confine_user_lines = false opts out", async () => {
    const project = buggyProject()
    const marker = join(tempDir('ze-marker-'), 'fsmonitor-ran')
    // Class 1 through the user's own line: the repository's fsmonitor must not run on `!git status`.
    execFileSync('git', ['config', 'core.fsmonitor', `touch ${marker}; false`], { cwd: project })
    const shellOutputs = async (home: string, lines: string[]) => {
      const t = await engineWith([{ blocks: [{ type: 'text', text: 'done' }] }], home)
      const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
      const outputs: string[] = []
      for (const command of lines) {
        session.send({ type: 'runShell', command })
        await session.idle()
        const last = t.events(session, 'commandOutput').at(-1)
        outputs.push(last?.type === 'commandOutput' ? last.markdown : '')
      }
      await t.engine.shutdown()
      return outputs
    }
    const [readOnly, status, typed] = await shellOutputs(homeWithSettings(''), [
      'printenv TMPDIR',
      'git status --short',
      'touch typed.txt && printenv TMPDIR; echo end',
    ])
    // Proven read-only: confined read-only (the sandbox's private TMPDIR).
    expect(readOnly).toContain('z-engine-sandbox-')
    expect(status).toContain('(exit 0)')
    expect(existsSync(marker)).toBe(false)
    // A line the gate would ask about counts as approved: unconfined with [shell.sandbox] off.
    expect(typed).toContain('end')
    expect(typed).not.toContain('z-engine-sandbox-')
    expect(existsSync(join(project, 'typed.txt'))).toBe(true)
    const [optedOut] = await shellOutputs(homeWithSettings('[shell.sandbox]\nconfine_user_lines = false\n'), [
      'printenv TMPDIR; echo end',
    ])
    expect(optedOut).toContain('end')
    expect(optedOut).not.toContain('z-engine-sandbox-')
  })

  it('under Bash(rg:*), Bash(grep:*), Bash(find:*) rules a link-following walk reads nothing of the home, and find -fprint outside asks (issue 34)', async () => {
    const project = buggyProject()
    const home = homeWithSettings('[permissions]\nallow = ["Bash(rg:*)", "Bash(grep:*)", "Bash(find:*)"]\n')
    writeFileSync(join(home, 'notes.txt'), 'HOME-NOTES\n')
    symlinkSync(home, join(project, 'lnk'))
    const t = await engineWith(
      [
        bash('rg -L HOME-NOTES; echo end'),
        bash('grep -R HOME-NOTES . ; echo end'),
        bash('find -L . -name notes.txt; echo end'),
        bash(`find . -name x -fprint ${home}/.bashrc`),
        { blocks: [{ type: 'text', text: 'done' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    const ask = await t.waitFor(session, 'approvalRequested')
    if (ask.type !== 'approvalRequested') throw new Error('unexpected')
    session.send({ type: 'resolveApproval', approvalId: ask.request.id, decision: { type: 'deny' } })
    await t.waitFor(session, 'turnFinished')
    expect(t.events(session, 'approvalRequested')).toHaveLength(1)
    for (const request of t.client.requests.slice(1, 4)) {
      const output = textOf(request.messages.at(-1))
      expect(output).toContain('end')
      expect(output).not.toContain('HOME-NOTES')
      expect(output).not.toContain('lnk/notes.txt')
    }
    expect(existsSync(join(home, '.bashrc'))).toBe(false)
    await t.engine.shutdown()
  })

  it('an approved Verify runs its checks confined with [shell.sandbox] off (issue 34)', async () => {
    const project = tempDir('ze-verify-')
    const outside = tempDir('ze-outside-')
    const home = homeWithSettings('')
    writeFileSync(join(home, '.npmrc'), '//registry.npmjs.org/:_authToken=NPMRC-SECRET\n')
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'x', scripts: { test: 'node leak.js' } }),
    )
    writeFileSync(
      join(project, 'leak.js'),
      // Exits 1 when it could read ~/.npmrc, so the check's exit code tells.
      `const fs = require('fs')\ntry { fs.writeFileSync(${JSON.stringify(join(outside, 'leak.txt'))}, 'x') } catch (e) { console.log(e.code) }\ntry { fs.readFileSync(process.env.HOME + '/.npmrc', 'utf8'); process.exit(1) } catch (e) { console.log(e.code) }\n`,
    )
    const t = await engineWith(
      [
        { blocks: [{ type: 'tool_use', name: 'Verify', input: { action: 'run', checks: ['test'] } }] },
        { blocks: [{ type: 'text', text: 'done' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    const ask = await t.waitFor(session, 'approvalRequested')
    if (ask.type !== 'approvalRequested') throw new Error('unexpected')
    session.send({ type: 'resolveApproval', approvalId: ask.request.id, decision: { type: 'allowOnce' } })
    await t.waitFor(session, 'turnFinished')
    const [recorded] = t.events(session, 'checkRecorded')
    expect(recorded).toMatchObject({ record: { checkId: 'test', exitCode: 0 } })
    expect(existsSync(join(outside, 'leak.txt'))).toBe(false)
    await t.engine.shutdown()
  })

  it('auto_allow (enabled off): an in-bounds build runs confined without asking', async () => {
    const project = buggyProject()
    const home = homeWithSettings('[shell.sandbox]\nauto_allow = true\n')
    const t = await engineWith(
      [
        bash('mkdir -p build && node test.js > build/log.txt 2>&1; printenv TMPDIR'),
        { blocks: [{ type: 'text', text: 'done' }] },
      ],
      home,
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await t.waitFor(session, 'turnFinished')
    expect(t.events(session, 'approvalRequested')).toEqual([])
    expect(readFileSync(join(project, 'build', 'log.txt'), 'utf8')).toContain('FAIL')
    expect(textOf(t.client.requests[1]!.messages.at(-1))).toContain('z-engine-sandbox-')
    await t.engine.shutdown()
  })

  it('a background job the policy proved read-only runs confined too', async () => {
    const project = buggyProject()
    const t = await engineWith([
      {
        blocks: [
          {
            type: 'tool_use',
            name: 'Bash',
            input: { command: 'printenv TMPDIR', run_in_background: true, description: 'bg' },
          },
        ],
      },
      { blocks: [{ type: 'tool_use', name: 'JobOutput', input: { job_id: 'bash_1', wait_ms: 5000 } }] },
      { blocks: [{ type: 'text', text: 'done' }] },
    ])
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    session.send({ type: 'submit', text: 'go' })
    await t.waitFor(session, 'turnFinished')
    expect(t.events(session, 'approvalRequested')).toEqual([])
    expect(textOf(t.client.requests[2]!.messages.at(-1))).toContain('z-engine-sandbox-')
    await t.engine.shutdown()
  })
})

describe('without a sandbox backend', () => {
  it('commands run unconfined, auto_allow does not apply, and one warning per session says why', async () => {
    const project = buggyProject()
    const home = homeWithSettings('[shell.sandbox]\nenabled = true\nauto_allow = true\n')
    const t = await engineWith(
      [
        bash('printenv TMPDIR; echo one'),
        bash('echo two'),
        bash('mkdir -p build'),
        { blocks: [{ type: 'text', text: 'done' }] },
      ],
      home,
      {
        sandboxBackend: {
          kind: 'none',
          reason: 'bubblewrap (bwrap) is not installed',
          install: 'apt install bubblewrap',
        },
      },
    )
    const session = await t.engine.openSession({ projectRoot: project, model: 'scripted:x' })
    const unavailable = () =>
      t.events(session, 'notice').filter((n) => n.type === 'notice' && n.code === 'sandbox_unavailable')
    // The backend is looked for once the first request is out, not while the session opens (issue 17).
    expect(unavailable()).toEqual([])
    session.send({ type: 'submit', text: 'go' })
    const ask = await t.waitFor(session, 'approvalRequested')
    if (ask.type !== 'approvalRequested') throw new Error('unexpected')
    expect(ask.request.toolName).toBe('Bash')
    session.send({ type: 'resolveApproval', approvalId: ask.request.id, decision: { type: 'allowOnce' } })
    await t.waitFor(session, 'turnFinished')
    const warnings = unavailable()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatchObject({ level: 'warning' })
    expect(JSON.stringify(warnings[0])).toMatch(/not installed.*unconfined.*apt install bubblewrap/)
    expect(textOf(t.client.requests[1]!.messages.at(-1))).not.toContain('z-engine-sandbox-')
    expect(existsSync(join(project, 'build'))).toBe(true)
    await t.engine.shutdown()
  })
})
