import { describe, expect, it } from 'vitest'
import { bash, context } from './helpers.js'

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
