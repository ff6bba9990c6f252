import { readdir, readFile, realpath } from 'node:fs/promises'
import { basename, join, relative, sep } from 'node:path'
import type { DefinitionFolder } from './folders.js'
import type { DefinitionIssue, DefinitionIssueCode } from './types.js'

/** A definition file's text, or why it could not be used. */
export type DefinitionFile = { path: string; relativePath: string; text: string }

/** Largest definition file read; anything bigger is almost certainly not a prompt. */
const MAX_FILE_BYTES = 256 * 1024

/**
 * Finds the files of one folder: markdown files (recursively when `recursive`) or, for skills,
 * `<name>/SKILL.md`. A missing folder is simply empty. Never throws.
 */
export async function readDefinitionFiles(
  folder: DefinitionFolder,
  shape: 'markdown' | 'markdownRecursive' | 'skill',
): Promise<{ files: DefinitionFile[]; errors: DefinitionIssue[] }> {
  const files: DefinitionFile[] = []
  const errors: DefinitionIssue[] = []
  const confinedRoot =
    folder.confineTo === undefined
      ? undefined
      : await realpath(folder.confineTo).catch(() => folder.confineTo)
  const issue = (path: string, code: DefinitionIssueCode, message: string) =>
    errors.push({ code, path, layer: folder.layer, message })

  const candidates: string[] = []
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries: import('node:fs').Dirent[]
    try {
      entries = await readdir(dir, { withFileTypes: true })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        issue(dir, 'folder_unreadable', `could not list the folder (${code ?? String(error)})`)
      return
    }
    entries.sort((a, b) => a.name.localeCompare(b.name))
    for (const entry of entries) {
      const path = join(dir, entry.name)
      if (shape === 'skill') {
        if (depth === 0 && (entry.isDirectory() || entry.isSymbolicLink()))
          candidates.push(join(path, 'SKILL.md'))
        continue
      }
      if (
        (entry.isDirectory() || entry.isSymbolicLink()) &&
        shape === 'markdownRecursive' &&
        !entry.name.endsWith('.md')
      ) {
        if (depth < 8) await walk(path, depth + 1)
        continue
      }
      if (entry.name.endsWith('.md')) candidates.push(path)
    }
  }
  if (folder.single === true) candidates.push(folder.dir)
  else await walk(folder.dir, 0)

  for (const path of candidates) {
    let real: string
    try {
      real = await realpath(path)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // A skill folder without SKILL.md is not a skill; say so, since it was probably meant to be.
      if (code === 'ENOENT')
        issue(
          path,
          shape === 'skill' ? 'skill_file_missing' : 'link_broken',
          shape === 'skill' ? 'the skill folder has no SKILL.md' : 'the link points nowhere',
        )
      else issue(path, 'file_unreadable', `could not be read (${code ?? String(error)})`)
      continue
    }
    if (confinedRoot !== undefined && !isInside(confinedRoot, real)) {
      issue(path, 'outside_project', `links outside the project (to ${real}), so it was skipped`)
      continue
    }
    try {
      const buffer = await readFile(real)
      if (buffer.byteLength > MAX_FILE_BYTES) {
        issue(path, 'file_too_large', `is larger than ${MAX_FILE_BYTES / 1024} KiB, so it was skipped`)
        continue
      }
      const relativePath = folder.single === true ? basename(path) : relative(folder.dir, path)
      files.push({ path, relativePath, text: buffer.toString('utf8') })
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      issue(path, 'file_unreadable', `could not be read (${code ?? String(error)})`)
    }
  }
  return { files, errors }
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)
}
