import { execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CommandDefinition, DefinitionLayer } from '../definitions/types.js'
import { splitShellWords, substituteArguments } from './arguments.js'
import type { ShellRunResult } from './embedded-commands.js'
import { type ExpandCommandDeps, expandCommand } from './expand.js'

let root: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'z-cmd-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const command = (
  body: string,
  extra: Partial<CommandDefinition> = {},
  layer: DefinitionLayer = 'user',
): CommandDefinition => ({
  name: 'fix',
  description: 'fix',
  source: { layer, path: '/x/fix.md' },
  frontmatter: {},
  warnings: [],
  body,
  allowedTools: [],
  ...extra,
})

/** A real shell, run with execFile so the test exercises actual output and exit codes. */
const runShell = (line: string, cwd: string): Promise<ShellRunResult> =>
  new Promise((resolve) => {
    execFile('/bin/sh', ['-c', line], { cwd }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null
      resolve({ exitCode: code, stdout, stderr })
    })
  })

const deps = (overrides: Partial<ExpandCommandDeps> = {}): ExpandCommandDeps => ({
  projectRoot: root,
  trusted: true,
  canRead: () => true,
  canRun: () => true,
  runShell,
  knownAgentTypes: ['explore', 'review'],
  ...overrides,
})

describe('arguments', () => {
  it('splits words like a shell', () => {
    expect(splitShellWords(`a "b c" 'd e' f\\ g "h\\"i" ''`)).toEqual(['a', 'b c', 'd e', 'f g', 'h"i', ''])
    expect(splitShellWords('  ')).toEqual([])
    expect(splitShellWords('"unclosed quote')).toEqual(['unclosed quote'])
  })

  it('substitutes $ARGUMENTS, $ARGUMENTS[N] and $N counting from 0 as Claude Code does; a missing $N stays as written', () => {
    expect(
      substituteArguments('all=[$ARGUMENTS] 0=[$0] 1=[$1] 2=[$2] i1=[$ARGUMENTS[1]]', ' one "two words" '),
    ).toBe('all=[one "two words"] 0=[one] 1=[two words] 2=[$2] i1=[two words]')
    expect(substituteArguments('$10 stays', 'x')).toBe('$10 stays')
  })

  it('keeps \\$ as a literal dollar, as Claude Code does', () => {
    expect(substituteArguments('costs \\$5, arg $0', 'x')).toBe('costs $5, arg x')
  })

  it('substitutes named arguments and ${CLAUDE_SKILL_DIR} for skills', () => {
    expect(
      substituteArguments('Fix $issue on $branch in ${CLAUDE_SKILL_DIR}; $HOME stays', '42 hotfix', {
        names: ['issue', 'branch'],
        skillDir: '/skills/fix',
      }),
    ).toBe('Fix 42 on hotfix in /skills/fix; $HOME stays')
  })

  it('appends arguments to a template without placeholders', () => {
    expect(substituteArguments('Review this.', 'src/a.ts')).toBe('Review this.\n\nARGUMENTS: src/a.ts')
    expect(substituteArguments('Review this.', '')).toBe('Review this.')
  })
})

describe('expandCommand', () => {
  it('produces the visible line and the body in a command tag', async () => {
    const expanded = await expandCommand(
      command('Fix issue $0 in $1.', { model: 'fast' }),
      ' 42 parser ',
      deps(),
    )
    expect(expanded.content).toEqual([
      { type: 'text', text: '/fix 42 parser' },
      { type: 'text', text: '<command name="fix">\nFix issue 42 in parser.\n</command>' },
    ])
    expect(expanded.model).toBe('fast')
    expect(expanded.notices).toEqual([])
  })

  it('inlines @path files the policy allows and reports the rest', async () => {
    writeFileSync(join(root, 'a.ts'), 'export const a = 1\n')
    writeFileSync(join(root, 'secret.env'), 'KEY=1\n')
    const expanded = await expandCommand(
      command('Look at @a.ts, then @secret.env and $ARGUMENTS; mail me@host.com'),
      '@missing.ts',
      deps({ canRead: (path) => !path.endsWith('.env') }),
    )
    const body = expanded.content[1].text
    expect(body).toContain('<file path="a.ts">\nexport const a = 1\n</file>')
    expect(body).not.toContain('KEY=1')
    expect(expanded.inlinedFiles).toEqual([join(root, 'a.ts')])
    expect(expanded.notices).toEqual([
      '@secret.env was not inlined: the permissions do not allow reading it.',
      // Claude Code reports a file the user mentioned that does not exist.
      '@missing.ts was not inlined: there is no such file.',
    ])
  })

  it("leaves a template's own @word that names no file as text, without a notice (a decorator is not a mention)", async () => {
    writeFileSync(join(root, 'conftest.py'), 'import pytest\n')
    const expanded = await expandCommand(
      command(
        'Write tests with @pytest.fixture and @pytest.mark.parametrize, see @conftest.py and @docs/missing.md',
      ),
      'for @parser.py',
      deps(),
    )
    const body = expanded.content[1].text
    expect(body).toContain('Write tests with @pytest.fixture and @pytest.mark.parametrize')
    expect(body).toContain('<file path="conftest.py">\nimport pytest\n</file>')
    // Only what the user typed is reported missing.
    expect(expanded.notices).toEqual(['@parser.py was not inlined: there is no such file.'])
  })

  it('does not inline a link whose target the policy refuses', async () => {
    writeFileSync(join(root, '.env'), 'KEY=1\n')
    symlinkSync(join(root, '.env'), join(root, 'innocent.txt'))
    const expanded = await expandCommand(
      command('See @innocent.txt'),
      '',
      deps({ canRead: (path) => !path.endsWith('.env') }),
    )
    expect(expanded.content[1].text).not.toContain('KEY=1')
    expect(expanded.notices).toEqual([
      '@innocent.txt was not inlined: the permissions do not allow reading it.',
    ])
  })

  it('enforces 256 KiB per file and 1 MiB in total', async () => {
    mkdirSync(join(root, 'big'))
    writeFileSync(join(root, 'big/huge.txt'), 'x'.repeat(256 * 1024 + 1))
    for (const name of ['1', '2', '3', '4', '5'])
      writeFileSync(join(root, `big/${name}.txt`), 'y'.repeat(250 * 1024))
    const expanded = await expandCommand(
      command('@big/huge.txt @big/1.txt @big/2.txt @big/3.txt @big/4.txt @big/5.txt'),
      '',
      deps(),
    )
    expect(expanded.inlinedFiles).toHaveLength(4)
    expect(expanded.notices[0]).toMatch(
      /big\/huge.txt was not inlined: it is 257 KiB, over the 256 KiB limit per file/,
    )
    expect(expanded.notices[1]).toMatch(
      /big\/5.txt was not inlined: the command already inlines 1000 KiB of the 1024 KiB allowed/,
    )
  })

  it('runs !`cmd` at a line start or after whitespace, as Claude Code does, and only when allowed', async () => {
    const seen: Array<{ command: string; rules: readonly string[] }> = []
    const expanded = await expandCommand(
      command(
        'Dir:\n!`pwd`\nFail:\n  !`echo oops >&2; exit 3`\nNope:\n!`rm -rf /`\n- Current branch: !`echo main` here\nGlued hi!`echo no` is text',
        {
          allowedTools: ['Bash(pwd)'],
        },
      ),
      '',
      deps({
        canRun: (line, rules) => {
          seen.push({ command: line, rules })
          return !line.startsWith('rm')
        },
      }),
    )
    const body = expanded.content[1].text
    expect(body).toContain(`Dir:\n${root}`)
    expect(body).toContain('Fail:\n  oops\n[exit code 3]')
    expect(body).toContain('Nope:\n[not run: `rm -rf /` is not allowed]')
    // Claude Code's `/commit` example: `- Current git status: !`git status``.
    expect(body).toContain('- Current branch: main here')
    expect(body).toContain('Glued hi!`echo no` is text')
    expect(expanded.ranCommands).toEqual(['pwd', 'echo oops >&2; exit 3', 'echo main'])
    expect(expanded.notices).toHaveLength(1)
    expect(seen[0]!.rules).toEqual(['Bash(pwd)'])
  })

  it('runs a fenced ```! block as one command, as Claude Code does', async () => {
    const expanded = await expandCommand(
      command('State:\n```!\necho one\necho two\n```\nDone.'),
      '',
      deps({ canRun: () => true }),
    )
    expect(expanded.content[1].text).toContain('State:\none\ntwo\nDone.')
    expect(expanded.ranCommands).toEqual(['echo one\necho two'])
  })

  it('grants a project command nothing in an untrusted workspace, but does for trusted or user ones', async () => {
    const projectCommand = command('!`git status`', { allowedTools: ['Bash(git status:*)'] }, 'project')
    let granted: readonly string[] = ['unset']
    const untrusted = await expandCommand(
      projectCommand,
      '',
      deps({
        trusted: false,
        canRun: (_line, rules) => {
          granted = rules
          return rules.length > 0
        },
      }),
    )
    expect(untrusted.turnRules).toEqual([])
    expect(granted).toEqual([])
    expect(untrusted.notices[0]).toMatch(/allowed-tools were not granted: this workspace is not trusted/)
    expect(untrusted.ranCommands).toEqual([])
    const trusted = await expandCommand(projectCommand, '', deps())
    expect(trusted.turnRules).toEqual(['Bash(git status:*)'])
    const userCommand = await expandCommand(
      command('x', { allowedTools: ['Read'] }, 'user'),
      '',
      deps({ trusted: false }),
    )
    expect(userCommand.turnRules).toEqual(['Read'])
  })

  it('adds an Agent reminder for @agent-<name> of a known type only', async () => {
    const expanded = await expandCommand(
      command('Investigate $ARGUMENTS'),
      'with @agent-explore and @agent-unknown',
      deps(),
    )
    expect(expanded.reminders).toHaveLength(1)
    expect(expanded.reminders[0]).toMatch(/<system-reminder>[\s\S]*subagent_type "explore"/)
  })
})

describe("a plugin's command", () => {
  it('has ${CLAUDE_PLUGIN_ROOT} and ${CLAUDE_PLUGIN_DATA} replaced before its ! lines run', async () => {
    mkdirSync(join(root, 'plugin', 'scripts'), { recursive: true })
    writeFileSync(join(root, 'plugin', 'scripts', 'status.sh'), 'echo plugin-status\n')
    const variables = { CLAUDE_PLUGIN_ROOT: join(root, 'plugin'), CLAUDE_PLUGIN_DATA: join(root, 'data') }
    const expanded = await expandCommand(
      command('!`sh ${CLAUDE_PLUGIN_ROOT}/scripts/status.sh`\nNotes go in ${CLAUDE_PLUGIN_DATA}/notes.md', {
        plugin: 'kit@acme',
      }),
      '',
      deps({ pluginVariables: (id) => (id === 'kit@acme' ? variables : undefined) }),
    )
    expect(expanded.content[1].text).toContain('plugin-status')
    expect(expanded.content[1].text).toContain(`Notes go in ${join(root, 'data')}/notes.md`)
  })
})
