import { readFileSync } from 'node:fs'
import { readdir, realpath } from 'node:fs/promises'
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

  // A candidate's real path is known without a realpath call when no folder or file on the way is
  // a link (the common case); only links are resolved one by one. Hundreds of definitions load fast.
  const candidates: Array<{ path: string; real?: string }> = []
  const walk = async (dir: string, realDir: string | undefined, depth: number): Promise<void> => {
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
    const subfolders: Array<Promise<void>> = []
    for (const entry of entries) {
      const path = join(dir, entry.name)
      const real = realDir !== undefined && !entry.isSymbolicLink() ? join(realDir, entry.name) : undefined
      if (shape === 'skill') {
        // SKILL.md itself may be a link, which only realpath can tell: it is resolved below. A
        // folder without one is not a skill (a shared `lib/`, say) and is passed over, as Claude
        // Code does, unless it holds a `skill.md` spelled otherwise: then it was meant to be one.
        if (depth === 0 && (entry.isDirectory() || entry.isSymbolicLink())) {
          const names = await readdir(path).catch(() => undefined)
          if (names === undefined || names.includes('SKILL.md'))
            candidates.push({ path: join(path, 'SKILL.md') })
          else {
            const misspelt = names.find((name) => name.toLowerCase() === 'skill.md')
            if (misspelt !== undefined)
              issue(
                path,
                'skill_file_missing',
                `the skill folder has ${misspelt} but no SKILL.md (rename it)`,
              )
          }
        }
        continue
      }
      if (
        (entry.isDirectory() || entry.isSymbolicLink()) &&
        shape === 'markdownRecursive' &&
        !entry.name.endsWith('.md')
      ) {
        if (depth < 8) subfolders.push(walk(path, real, depth + 1))
        continue
      }
      if (entry.name.endsWith('.md')) candidates.push({ path, ...(real !== undefined ? { real } : {}) })
    }
    await Promise.all(subfolders)
  }
  if (folder.single === true) candidates.push({ path: folder.dir })
  else if (shape === 'skill' && (await holdsSkillFile(folder.dir)))
    // A plugin's skills path may name one skill's folder: it is that skill, and its own subfolders
    // (`references/`, `scripts/`, `assets/`) are not skills, as in Claude Code.
    candidates.push({ path: join(folder.dir, 'SKILL.md') })
  else {
    const realRoot = await realpath(folder.dir).catch(() => undefined)
    if (realRoot !== undefined) await walk(folder.dir, realRoot, 0)
    else await walk(folder.dir, undefined, 0)
  }
  // Subfolders were walked concurrently; keep a stable order.
  candidates.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))

  const read = async ({
    path,
    real: known,
  }: {
    path: string
    real?: string
  }): Promise<DefinitionFile | undefined> => {
    let real = known
    if (real === undefined) {
      try {
        real = await realpath(path)
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        missingOrUnreadable(path, code, error)
        return undefined
      }
    }
    if (confinedRoot !== undefined && !isInside(confinedRoot, real)) {
      issue(path, 'outside_project', `links outside the project (to ${real}), so it was skipped`)
      return undefined
    }
    try {
      // Synchronous: hundreds of small files read far faster than through open/stat/read/close promises.
      const buffer = readFileSync(real)
      if (buffer.byteLength > MAX_FILE_BYTES) {
        issue(path, 'file_too_large', `is larger than ${MAX_FILE_BYTES / 1024} KiB, so it was skipped`)
        return undefined
      }
      const relativePath = folder.single === true ? basename(path) : relative(folder.dir, path)
      return { path, relativePath, text: buffer.toString('utf8') }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      if (code === 'ENOENT' || code === 'ENOTDIR') missingOrUnreadable(path, code, error)
      else issue(path, 'file_unreadable', `could not be read (${code ?? String(error)})`)
      return undefined
    }
  }
  const missingOrUnreadable = (path: string, code: string | undefined, error: unknown) => {
    // A skill folder without SKILL.md is not a skill; say so, since it was probably meant to be.
    if (code === 'ENOENT' || code === 'ENOTDIR')
      issue(
        path,
        shape === 'skill' ? 'skill_file_missing' : 'link_broken',
        shape === 'skill' ? 'the skill folder has no SKILL.md' : 'the link points nowhere',
      )
    else issue(path, 'file_unreadable', `could not be read (${code ?? String(error)})`)
  }
  for (const file of await Promise.all(candidates.map(read))) if (file !== undefined) files.push(file)
  return { files, errors }
}

/** Whether `dir` is itself a skill's folder (it holds SKILL.md). */
async function holdsSkillFile(dir: string): Promise<boolean> {
  const names = await readdir(dir).catch(() => [] as string[])
  return names.includes('SKILL.md')
}

function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep)
}
