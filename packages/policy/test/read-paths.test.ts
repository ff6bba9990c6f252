import { describe, expect, it } from 'vitest'
import { bash, context } from './helpers.js'

// Issue 34 class 4: deny rules hold for every read path a shell line has.
const denyEnv = (mode: 'default' | 'bypass' | 'acceptEdits') => context(mode, { deny: ['Read(./.env)'] })

describe('git index and pathspec forms (issue 34)', () => {
  it.each([
    'git show :0:.env',
    'git show :2:.env',
    'git show :.env',
    'git show HEAD:.env',
    'git cat-file -p :0:.env',
  ])('%j is denied', (line) => {
    expect(bash(line, denyEnv('default')).decision).toBe('deny')
    expect(bash(line, denyEnv('bypass')).decision).toBe('deny')
  })
  it.each([
    'git diff HEAD -- .',
    'git diff -- .',
    'git log -p',
    'git log -p -- .',
    'git grep SECRET',
    'git show HEAD',
  ])('%j asks when a deny rule may be reached (in bypass too)', (line) => {
    expect(bash(line, denyEnv('default')).decision).toBe('ask')
    expect(bash(line, denyEnv('bypass')).decision).toBe('ask')
  })
  // Session f: git's pathspecs are patterns, with magic, and `:/text` names a commit by its message.
  it.each([
    "git log -p -- '*nv'",
    "git log -p -- '.en?'",
    "git diff HEAD~1 -- '[.]env'",
    "git show HEAD -- ':!src'",
    "git log -p -- ':(exclude)src'",
    "git show HEAD -- ':/.env'",
    "git log -p -- ':(top).env'",
    "git log -p -- ':(icase).ENV'",
    'git --icase-pathspecs log -p -- .ENV',
    "git show ':/init'",
    "git grep KEY -- '*'",
    'git config --blob HEAD:.env --list',
    'git config --blob=HEAD:.env -l',
  ])('%j never allows where a deny rule may be reached (in bypass too)', (line) => {
    expect(bash(line, denyEnv('default')).decision).not.toBe('allow')
    expect(bash(line, denyEnv('bypass')).decision).not.toBe('allow')
  })
  it.each([
    'git diff HEAD~1 -- .env',
    'git log -p -- ./.env',
    'git show HEAD:./.env',
    'git cat-file blob HEAD:.env',
  ])('%j is denied (the named path is the denied file)', (line) => {
    expect(bash(line, denyEnv('bypass')).decision).toBe('deny')
  })
  it('a pathspec that cannot reach the denied file stays allowed', () => {
    expect(bash('git diff HEAD -- src', denyEnv('default')).decision).toBe('allow')
    expect(bash('git show :0:README.md', denyEnv('default')).decision).toBe('allow')
  })
})

describe('link-following walks (issue 34)', () => {
  it.each([
    'rg -L foo',
    'rg --follow foo',
    'grep -R foo .',
    'grep -rR foo',
    'grep --dereference-recursive foo .',
    'find -L . -name x',
    'find . -follow -name x',
    'ls -LR',
    'du -L .',
    'tree -l',
  ])('%j is not proven read-only', (line) => {
    const verdict = bash(line, context('default'))
    expect(verdict.decision).toBe('ask')
    expect(verdict.reason).toContain('symbolic links')
    expect(bash(line, denyEnv('bypass')).decision).toBe('ask')
  })
  it.each([
    'rg foo',
    'grep -rn foo .',
    'find . -name x',
    'ls -R src',
    'du -sh .',
    'tree -L 2 src',
    'stat -L a',
  ])('%j stays proven', (line) => {
    expect(bash(line, context('default')).decision).toBe('allow')
  })
})

describe('folder-wide reads in bypass mode (issue 34)', () => {
  it.each([
    'tar czf /tmp/x.tgz .',
    'tar -cf /tmp/x.tar src .',
    'zip -r /tmp/x.zip .',
    'cp -r . /tmp/x',
    'rsync -a ./ /tmp/x',
    'git archive HEAD',
    'git archive -o /tmp/x.tgz HEAD',
  ])('%j asks when the folder holds a deny-ruled file', (line) => {
    expect(bash(line, denyEnv('bypass')).decision).toBe('ask')
  })
  it.each(['tar czf /tmp/x.tgz src', 'cp -r src /tmp/x', 'zip -r /tmp/x.zip src'])(
    '%j is allowed in bypass when the folder cannot hold it',
    (line) => {
      expect(bash(line, denyEnv('bypass')).decision).toBe('allow')
    },
  )
})
