/** A string with `${VAR}` and `${VAR:-default}` replaced, and the variables that were unset. */
export interface Expanded {
  value: string
  /** Variables referenced without a default that the environment does not set (they became ''). */
  missing: string[]
}

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g

/**
 * Expands `${VAR}` and `${VAR:-default}` the way Claude Code's `.mcp.json` does: an unset or empty
 * variable takes the default; one without a default becomes '' and is reported, so the caller can
 * say which server lacks which variable instead of starting it with a silently empty secret.
 */
export function expandEnv(text: string, env: Readonly<Record<string, string | undefined>>): Expanded {
  const missing: string[] = []
  const value = text.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
    const set = env[name]
    if (set !== undefined && set !== '') return set
    if (fallback !== undefined) return fallback
    if (!missing.includes(name)) missing.push(name)
    return ''
  })
  return { value, missing }
}
