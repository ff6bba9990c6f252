/** `{{name}}` placeholders: letters, digits and underscores, no spaces inside the braces. */
const PLACEHOLDER = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g

/** The distinct variable names a template uses, in order of first appearance. */
export function templateVariables(template: string): string[] {
  const names: string[] = []
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1]!
    if (!names.includes(name)) names.push(name)
  }
  return names
}

/**
 * Replaces every `{{name}}` with its value. A missing variable throws: templates ship with the
 * package, so a gap is a programming error the prompt test catches, never user input.
 */
export function renderTemplate(template: string, variables: Readonly<Record<string, string>>): string {
  // One pass, so a value that itself contains `{{x}}` is never expanded again.
  return template.replace(PLACEHOLDER, (_placeholder, name: string) => {
    const value = variables[name]
    if (value === undefined) throw new Error(`Template variable '${name}' was not supplied`)
    return value
  })
}
