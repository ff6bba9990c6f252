import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILE_TYPES } from './file-types.js'
import { grepBuiltin } from './grep-builtin.js'
import { findRipgrep, grepWithRipgrep, runRipgrep } from './grep-ripgrep.js'
import type { GrepQuery } from './grep-types.js'

const rg = findRipgrep()
let root: string

/** A corpus with every selection rule ripgrep applies. */
const CORPUS: Record<string, string | Buffer> = {
  'src/app.ts':
    'import { helper } from "./util"\nexport function main() {\n  // TODO: wire up\n  return helper(1)\n}\n',
  'src/util.ts': 'export function helper(n: number) {\n  return n + 1\n}\n// todo lower case\n',
  'src/view.tsx': 'export const View = () => <div>TODO</div>\n',
  'src/legacy.js': 'function old() {\n  return "todo"\n}\nmodule.exports = old\n',
  'src/nested/deep/file.py': 'def helper():\n    # TODO python\n    return 1\n\n\nclass Foo:\n    pass\n',
  'src/nested/.gitignore': 'generated.py\n',
  'src/nested/generated.py': '# TODO generated, ignored by nested gitignore\n',
  'src/crlf.ts': 'const a = 1\r\n// TODO crlf\r\nconst b = 2\r\n',
  'src/bom.ts': Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]),
    Buffer.from('// TODO bom first line\nconst x = 1\n'),
  ]),
  'src/unicode.md': '# Überschrift\nTODO: ünïcödé text\nnaïve café\n',
  'docs/readme.md': '# Readme\n\nSome docs.\nTODO: write docs\n\nMore text\nfunction in docs\n',
  'docs/notes.txt': 'line one\nline two\nfunction three\nline four\nline five\nline six\nfunction seven\n',
  'build/out.js': 'function built() {} // TODO built\n',
  'logs/app.log': 'TODO log entry\n',
  'keep.log': 'TODO kept by negation\n',
  '.gitignore': 'build/\n*.log\n!keep.log\nnode_modules\n',
  '.ignore': 'secret-dir/\n',
  '.rgignore': '!logs/app.log\n',
  'secret-dir/s.txt': 'TODO secret\n',
  'node_modules/pkg/index.js': 'function dep() { /* TODO dep */ }\n',
  '.hidden/config.ts': 'export const hidden = "TODO hidden"\n',
  '.env.example': 'TODO=1\n',
  '.git/config': '[core]\n TODO = in git dir\n',
  '.git/info/exclude': 'excluded.txt\n',
  'excluded.txt': 'TODO excluded via info/exclude\n',
  'data.bin': Buffer.concat([Buffer.from('TODO binary'), Buffer.from([0, 1, 2, 3])]),
  Makefile: 'all:\n\techo TODO make\n',
  'multi.txt': 'alpha\nbeta\ngamma\nalpha\nbeta\ndelta\n',
  'long.txt': `${'x'.repeat(700)} TODO long line\n`,
}

beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ze-grep-')))
  for (const [path, content] of Object.entries(CORPUS)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), content)
  }
  symlinkSync(join(root, 'src/app.ts'), join(root, 'src/link.ts'))
  symlinkSync(join(root, 'docs'), join(root, 'docs-link'))
})
afterAll(() => rmSync(root, { recursive: true, force: true }))

type Case = Partial<Omit<GrepQuery, 'root' | 'signal'>> & { path?: string }

const CASES: Array<[string, Case]> = [
  ['files with matches', { pattern: 'TODO' }],
  ['files, case-insensitive', { pattern: 'todo', caseInsensitive: true }],
  ['content', { pattern: 'TODO', mode: 'content' }],
  ['content, -i', { pattern: 'todo', mode: 'content', caseInsensitive: true }],
  ['count', { pattern: 'TODO', mode: 'count' }],
  ['count, -i', { pattern: 'todo', mode: 'count', caseInsensitive: true }],
  ['content, -A 1', { pattern: 'function', mode: 'content', after: 1 }],
  ['content, -B 2', { pattern: 'function', mode: 'content', before: 2 }],
  ['content, -C 1 (merged groups)', { pattern: 'line|function', mode: 'content', before: 1, after: 1 }],
  ['glob *.ts', { pattern: 'TODO', globs: ['*.ts'] }],
  ['glob brace', { pattern: 'TODO', globs: ['*.{ts,tsx}'], mode: 'content' }],
  ['glob anchored path', { pattern: 'TODO', globs: ['src/**/*.py'] }],
  ['glob negation only', { pattern: 'TODO', globs: ['!*.md'] }],
  ['glob whitelists an ignored file', { pattern: 'TODO', globs: ['*.log'] }],
  ['glob whitelist plus exclusion', { pattern: 'TODO', globs: ['*.ts', '!src/crlf.ts'] }],
  ['type ts', { pattern: 'TODO', types: ['ts'] }],
  ['type py, content', { pattern: 'TODO', types: ['py'], mode: 'content' }],
  ['type make', { pattern: 'TODO', types: ['make'], mode: 'count' }],
  ['types js and md', { pattern: 'TODO', types: ['js', 'md'] }],
  ['multiline', { pattern: 'alpha\\nbeta', multiline: true, mode: 'content' }],
  ['multiline count', { pattern: 'alpha\\nbeta|gamma', multiline: true, mode: 'count' }],
  ['multiline dotall', { pattern: 'helper.*?return', multiline: true, mode: 'content' }],
  ['multiline files', { pattern: 'class Foo:\\n\\s+pass', multiline: true }],
  ['anchors', { pattern: '^const', mode: 'content' }],
  ['end anchor with CRLF', { pattern: '2$', mode: 'content' }],
  ['dot matches a carriage return', { pattern: 'crlf.$', mode: 'content' }],
  ['multiline anchors with CRLF', { pattern: '^const b = 2$', multiline: true, mode: 'content' }],
  ['character class with ^ and ]', { pattern: '[^a-z ]TODO[]:]', mode: 'content' }],
  ['word boundary and class', { pattern: '\\bhelper\\(\\w+', mode: 'content' }],
  ['sub folder path', { pattern: 'TODO', path: 'src/nested', mode: 'content' }],
  ['explicit file', { pattern: 'TODO', path: 'data.bin', mode: 'count' }],
  ['explicit ignored file', { pattern: 'TODO', path: 'logs/app.log', mode: 'content' }],
  ['explicit ignored folder', { pattern: 'TODO', path: 'node_modules/pkg', mode: 'content' }],
  ['explicit ignored folder, glob', { pattern: 'TODO', path: 'build', globs: ['*.js'] }],
  ['unicode', { pattern: 'ünïcödé|café', mode: 'content' }],
  ['no matches', { pattern: 'NOPE_NOT_THERE', mode: 'content' }],
  ['context at file edges', { pattern: 'alpha', mode: 'content', before: 3, after: 3 }],
]

function query(spec: Case): GrepQuery {
  return {
    pattern: spec.pattern ?? '',
    root: spec.path ? join(root, spec.path) : root,
    globs: spec.globs ?? [],
    types: spec.types ?? [],
    caseInsensitive: spec.caseInsensitive ?? false,
    multiline: spec.multiline ?? false,
    mode: spec.mode ?? 'files_with_matches',
    before: spec.before ?? 0,
    after: spec.after ?? 0,
  }
}

describe.skipIf(!rg)('Grep: built-in and ripgrep agree', () => {
  it('has at least 20 option combinations', () => {
    expect(CASES.length).toBeGreaterThanOrEqual(20)
  })
  it.each(CASES)('%s', async (_name, spec) => {
    const q = query(spec)
    const [viaRipgrep, builtin] = await Promise.all([grepWithRipgrep(rg!, q), grepBuiltin(q)])
    expect(viaRipgrep.ok).toBe(true)
    expect(builtin).toEqual(viaRipgrep)
  })
  it('selects the expected files (sanity check of the corpus)', async () => {
    const outcome = await grepBuiltin(query({ pattern: 'TODO' }))
    const paths = outcome.ok ? outcome.files.map((file) => file.path.slice(root.length + 1)) : []
    expect(paths).toContain('keep.log')
    expect(paths).toContain('.hidden/config.ts')
    expect(paths).toContain('logs/app.log')
    for (const hidden of [
      'build/out.js',
      'secret-dir/s.txt',
      'node_modules/pkg/index.js',
      '.git/config',
      'excluded.txt',
      'data.bin',
      'src/link.ts',
      'src/nested/generated.py',
    ]) {
      expect(paths).not.toContain(hidden)
    }
  })
  it('type table matches the installed ripgrep', async () => {
    const list = await runRipgrep(rg!, ['--type-list'])
    const installed = new Map(
      list.stdout
        .trim()
        .split('\n')
        .map((line) => {
          const [name, globs] = line.split(': ')
          return [name!, new Set(globs!.split(', '))] as const
        }),
    )
    for (const [name, globs] of Object.entries(FILE_TYPES)) {
      for (const glob of globs) expect(installed.get(name)?.has(glob), `${name}: ${glob}`).toBe(true)
    }
  })
})

describe('built-in errors', () => {
  it('reports a bad pattern and an unknown type as values', async () => {
    expect(await grepBuiltin(query({ pattern: '(' }))).toMatchObject({ ok: false })
    expect(await grepBuiltin(query({ pattern: 'x', types: ['nosuchtype'] }))).toEqual({
      ok: false,
      message: 'unrecognized file type: nosuchtype',
    })
    expect(await grepBuiltin(query({ pattern: 'a\\nb' }))).toMatchObject({ ok: false })
  })
})
