import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Message } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import { buggyProject, cleanupTempDirs, engineWith } from './engine-harness.js'

cleanupTempDirs()

/** The text of every tool result in a request's last message. */
function toolResultText(messages: readonly Message[]): string {
  const last = messages.at(-1)!
  return last.content
    .flatMap((block) => (block.type === 'tool_result' ? block.content : []))
    .map((part) => (part.type === 'text' ? part.text : ''))
    .join('\n')
}

/** A pytest run printed by a script: one failure among 2,000 passing tests, then the summary. */
function writePytestScript(project: string): void {
  const lines = [
    '============================= test session starts ==============================',
    'collected 2001 items',
    '',
  ]
  for (let index = 0; index < 1000; index++) lines.push(`tests/test_lexer.py::test_token_${index} PASSED`)
  lines.push('tests/test_parser.py::test_parse_empty FAILED')
  for (let index = 0; index < 1000; index++) lines.push(`tests/test_printer.py::test_print_${index} PASSED`)
  lines.push(
    '',
    '=================================== FAILURES ===================================',
    '_______________________________ test_parse_empty _______________________________',
    '',
    '    def test_parse_empty():',
    '>       assert parse("") == []',
    'E       AssertionError: assert None == []',
    '',
    'tests/test_parser.py:12: AssertionError',
    '=========================== short test summary info ============================',
    'FAILED tests/test_parser.py::test_parse_empty - AssertionError: assert None == []',
    '======================== 1 failed, 2000 passed in 5.10s ========================',
  )
  writeFileSync(join(project, 'pytest-output.txt'), `${lines.join('\n')}\n`)
  writeFileSync(join(project, 'run-tests.sh'), 'cat pytest-output.txt\nexit 1\n')
}

async function bashResult(project: string, command: string): Promise<{ text: string; home: string }> {
  const { engine, client, home, waitFor } = await engineWith([
    { blocks: [{ type: 'tool_use', name: 'Bash', input: { command, description: 'run it' } }] },
    { blocks: [{ type: 'text', text: 'done' }] },
  ])
  const session = await engine.openSession({ projectRoot: project, mode: 'bypass', model: 'scripted:x' })
  session.send({ type: 'submit', text: 'go' })
  await waitFor(session, 'turnFinished')
  await engine.shutdown()
  return { text: toolResultText(client.requests.at(-1)!.messages), home }
}

/** The artifact path a shortened result names, read back. */
function spilled(text: string): string {
  const path = /the full \d+ characters are saved at (\S+?);/.exec(text)?.[1]
  expect(path).toBeDefined()
  return readFileSync(path!, 'utf8')
}

describe('Policies retain useful structure for files, search matches, tests, process logs, diffs, and worker conclusions', () => {
  it('a failing test run through Bash keeps the failure, its assertion and the summary, with the spill reference', async () => {
    const project = buggyProject()
    writePytestScript(project)
    const { text } = await bashResult(project, 'sh run-tests.sh')
    expect(text).toContain('tests/test_parser.py::test_parse_empty FAILED')
    expect(text).toContain('E       AssertionError: assert None == []')
    expect(text).toContain('tests/test_parser.py:12: AssertionError')
    expect(text).toContain('======================== 1 failed, 2000 passed in 5.10s ========================')
    expect(text).toMatch(/omitted, \d+ of them passing tests/)
    // Well below the byte ceiling (30,000 characters): the test budget (4,000 tokens) shaped it.
    expect(text.length).toBeLessThan(17_000)
    // The full output was saved, and the result says where.
    expect(spilled(text)).toContain('tests/test_printer.py::test_print_999 PASSED')
  })

  it('a real `git diff` over many files keeps every file and hunk header', async () => {
    const project = buggyProject()
    mkdirSync(join(project, 'src'))
    const body = (file: number, variant: string) =>
      Array.from({ length: 200 }, (_, line) =>
        line % 50 === 7
          ? `export const value${line} = ${variant}(${file}, ${line})`
          : `// line ${line} of module ${file}`,
      ).join('\n')
    for (let file = 0; file < 20; file++)
      writeFileSync(join(project, 'src', `module-${file}.ts`), body(file, 'compute'))
    execFileSync('git', ['add', '.'], { cwd: project })
    execFileSync('git', ['-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-qm', 'modules'], {
      cwd: project,
    })
    for (let file = 0; file < 20; file++)
      writeFileSync(join(project, 'src', `module-${file}.ts`), body(file, 'computeFast'))
    const { text } = await bashResult(project, 'git --no-pager diff')
    for (let file = 0; file < 20; file++)
      expect(text).toContain(`diff --git a/src/module-${file}.ts b/src/module-${file}.ts`)
    expect(text.match(/^@@ -/gm)?.length).toBe(80)
    expect(text).toContain('+export const value7 = computeFast(0, 7)')
    expect(text).toMatch(/lines omitted \(\+\d+ -\d+\)/)
    expect(spilled(text)).toContain('+export const value157 = computeFast(19, 157)')
  })
})
