import { mkdir, readFile, realpath, rename, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'

/** `trust.json` in the config folder: the workspace roots the user trusted. */
export interface TrustFile {
  version: 1
  trusted: Array<{ root: string; at: string }>
}

/** Records and answers which workspaces the user trusts (spec 000 "Workspace trust"). */
export interface TrustStore {
  /** The `trust.json` path. */
  readonly file: string
  /** Whether this exact root was trusted (symlinks resolved). A missing or broken file trusts nothing. */
  isTrusted(root: string): Promise<boolean>
  /** Records the root; returns an error message instead of throwing when the file can't be written. */
  trust(root: string): Promise<{ ok: true } | { ok: false; error: string }>
  /** Removes the root, if present. */
  untrust(root: string): Promise<{ ok: true } | { ok: false; error: string }>
}

/** The trust store kept in `<configDir>/trust.json`. */
export function createTrustStore(configDir: string, now: () => Date = () => new Date()): TrustStore {
  const file = join(configDir, 'trust.json')

  const read = async (): Promise<{ data: TrustFile; broken: boolean }> => {
    let text: string
    try {
      text = await readFile(file, 'utf8')
    } catch {
      return { data: { version: 1, trusted: [] }, broken: false }
    }
    try {
      const value = JSON.parse(text) as Partial<TrustFile>
      const trusted = Array.isArray(value.trusted)
        ? value.trusted.filter((entry) => typeof entry?.root === 'string' && typeof entry.at === 'string')
        : []
      return { data: { version: 1, trusted }, broken: !Array.isArray(value.trusted) }
    } catch {
      return { data: { version: 1, trusted: [] }, broken: true }
    }
  }

  const write = async (
    data: TrustFile,
    broken: boolean,
  ): Promise<{ ok: true } | { ok: false; error: string }> => {
    try {
      await mkdir(dirname(file), { recursive: true })
      // Keep a broken file for the user to inspect rather than silently overwriting it.
      if (broken) await rename(file, `${file}.broken-${now().getTime()}`).catch(() => {})
      const temporary = `${file}.${process.pid}.tmp`
      await writeFile(temporary, `${JSON.stringify(data, null, 2)}\n`, { mode: 0o600 })
      await rename(temporary, file)
      return { ok: true }
    } catch (error) {
      return {
        ok: false,
        error: `Could not write ${file} (${(error as NodeJS.ErrnoException).code ?? String(error)}); check the folder's permissions.`,
      }
    }
  }

  return {
    file,
    async isTrusted(root) {
      const canonical = await canonicalRoot(root)
      const { data } = await read()
      return data.trusted.some((entry) => entry.root === canonical)
    },
    async trust(root) {
      const canonical = await canonicalRoot(root)
      const { data, broken } = await read()
      if (data.trusted.some((entry) => entry.root === canonical)) return { ok: true }
      data.trusted.push({ root: canonical, at: now().toISOString() })
      return write(data, broken)
    },
    async untrust(root) {
      const canonical = await canonicalRoot(root)
      const { data, broken } = await read()
      const kept = data.trusted.filter((entry) => entry.root !== canonical)
      if (kept.length === data.trusted.length && !broken) return { ok: true }
      return write({ version: 1, trusted: kept }, broken)
    },
  }
}

async function canonicalRoot(root: string): Promise<string> {
  const absolute = resolve(root)
  return realpath(absolute).catch(() => absolute)
}
