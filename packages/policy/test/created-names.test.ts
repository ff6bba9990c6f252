import { describe, expect, it } from 'vitest'
import type { PolicyContext } from '../src/decide/context.js'
import { bash, context, ROOT } from './helpers.js'

// Issue 34 class 5: copies, moves and extractions are judged by the names they create, not by the
// operand they name. A name the policy protects (or a tree of unknown names, which may hold one)
// asks in every mode but bypass, even under an allow rule.
const MODES = ['acceptEdits', 'default'] as const

describe('copies by what they create (issue 34)', () => {
  it.each([
    'cp -r vendor/.husky .',
    'cp -r vendor/. .',
    'cp -a vendor/. ./',
    'cp -r vendor/.git sub',
    'cp -r vendor/.claude .',
    'cp vendor/rust-toolchain.toml .',
    'cp -r vendor/.cargo .',
    'cp -r vendor/.vscode .',
    'cp -t . vendor/.envrc',
    'cp -r vendor/.* .',
    'cp -r vendor/* .',
    'cp -rT vendor/. out',
    'mv vendor/.husky .',
    'mv vendor/.tool-versions .',
    'rsync -a vendor/ .',
    'rsync -a vendor/. .',
    'rsync -a vendor/.husky .',
    'tar -xf evil.tar',
    'tar xzf evil.tgz -C out',
    'tar --extract --file=evil.tar',
    'unzip evil.zip',
    'unzip evil.zip -d out',
  ])('%j asks (it may create a protected place)', (line) => {
    const name = line.split(' ')[0] as string
    for (const mode of MODES) {
      const verdict = bash(line, context(mode, { allow: [`Bash(${name}:*)`, 'Edit(/**)'] }))
      expect(verdict.decision).toBe('ask')
      expect(verdict.reason).toContain('protected')
    }
    expect(bash(line, context('bypass')).decision).toBe('allow')
  })

  it.each([
    'cp a.txt b.txt',
    'cp -r src dist',
    'cp -r vendor/lib src',
    'cp -r vendor/*.ts src',
    'mv a.txt b.txt',
    'cp -T a b',
  ])('%j stays allowed in acceptEdits', (line) => {
    expect(bash(line, context('acceptEdits')).decision).toBe('allow')
  })

  it.each(['rsync -a vendor/lib out', 'tar -czf out.tgz src', 'unzip -l a.zip'])(
    '%j stays allowed under its rule',
    (line) => {
      const name = line.split(' ')[0] as string
      expect(bash(line, context('acceptEdits', { allow: [`Bash(${name}:*)`] })).decision).toBe('allow')
    },
  )
})

// A folder copied by name brings what it holds: `cp -r vendor out` creates `out/vendor/…` (or
// `out/…` when out is new), so the names inside vendor are judged too (the engine walks it, bounded).
describe('a folder copied by name is judged by the names inside it (issue 34)', () => {
  const withTree = (names: readonly string[] | undefined): Partial<PolicyContext> => ({
    pathFacts: {
      realPath: (path) => path,
      treeNames: (dir) => (dir === `${ROOT}/vendor` ? names : []),
    },
  })
  const planted = ['lib', 'lib/a.js', '.git', '.git/config', '.git/hooks', '.git/hooks/post-checkout']

  it.each([
    'cp -r vendor out',
    'cp -a vendor sub/',
    'cp -r vendor .',
    'mv vendor out',
    'rsync -a vendor out',
  ])('%j asks when the folder holds a protected place', (line) => {
    const name = line.split(' ')[0] as string
    for (const mode of MODES) {
      const verdict = bash(
        line,
        context(mode, { allow: [`Bash(${name}:*)`, 'Edit(/**)'] }, withTree(planted)),
      )
      expect(verdict.decision).toBe('ask')
      expect(verdict.reason).toMatch(/may create .*\.git.*protected/)
    }
  })

  it('asks when the folder is too large to walk (its names are unknown)', () => {
    expect(bash('cp -r vendor out', context('acceptEdits', {}, withTree(undefined))).decision).toBe('ask')
  })

  it.each(['cp -r vendor out', 'mv vendor out', 'cp -r vendor .'])(
    '%j stays allowed in acceptEdits when nothing inside is protected',
    (line) => {
      expect(
        bash(line, context('acceptEdits', {}, withTree(['lib', 'lib/a.js', 'README.md']))).decision,
      ).toBe('allow')
    },
  )
})
