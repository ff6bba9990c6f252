import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { checkPermission } from './check-permission.js'
import { treeNamesOnDisk } from './tree-names.js'

const project = realpathSync(mkdtempSync(join(tmpdir(), 'ze-tree-')))
afterAll(() => rmSync(project, { recursive: true, force: true }))

function put(path: string, text = ''): void {
  mkdirSync(join(project, path, '..'), { recursive: true })
  writeFileSync(join(project, path), text)
}

put('vendor/lib/a.js')
put('vendor/.git/config', '[core]\n')
put('vendor/.git/hooks/post-checkout', '#!/bin/sh\n')
put('plain/lib/a.js')
put('plain/README.md')
symlinkSync('/etc', join(project, 'plain', 'etc-link'))

describe('treeNamesOnDisk', () => {
  it('lists a folder tree without following links; [] for a file; undefined past the bound', () => {
    expect([...(treeNamesOnDisk(join(project, 'plain')) ?? [])].sort()).toEqual([
      'README.md',
      'etc-link',
      'lib',
      'lib/a.js',
    ])
    expect(treeNamesOnDisk(join(project, 'plain', 'README.md'))).toEqual([])
    expect(treeNamesOnDisk(join(project, 'missing'))).toEqual([])
    expect(treeNamesOnDisk(join(project, 'plain'), 2)).toBeUndefined()
  })
})

describe('a copy of a folder is judged by the names inside it, read from disk (issue 34)', () => {
  const decide = (command: string, mode: 'acceptEdits' | 'default', allow: string[] = []) =>
    checkPermission({
      tool: 'Bash',
      input: { command },
      cwd: project,
      home: '/home/u',
      mode,
      rules: { allow },
    })

  it.each(['cp -r vendor out', 'cp -a vendor sub', 'mv vendor out', 'rsync -a vendor out'])(
    '%j asks: the folder holds a .git with hooks',
    (command) => {
      const name = command.split(' ')[0] as string
      expect(decide(command, 'acceptEdits', [`Bash(${name}:*)`])).toMatchObject({ decision: 'ask' })
      expect(decide(command, 'default', [`Bash(${name}:*)`, 'Edit(/**)'])).toMatchObject({ decision: 'ask' })
    },
  )

  it('a folder with nothing protected inside copies without asking in acceptEdits', () => {
    expect(decide('cp -r plain out', 'acceptEdits')).toMatchObject({ decision: 'allow' })
    expect(decide('mv plain moved', 'acceptEdits')).toMatchObject({ decision: 'allow' })
  })
})
