import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'smol-toml'
import { describe, expect, it } from 'vitest'
import { localSettingsFile, persistAdditionalDirectory, persistAllowRule } from './persist.js'
import { appendToTomlArray } from './toml-append.js'

const COMMENTED = `# Local settings — keep this file out of git.
# Written by hand; the engine must keep every comment.

model.name = "claude-x" # inline comment on a dotted key

[permissions] # the permissions table
# Rules the team agreed on:
allow = [
  "Read(./src/**)", # sources
  # a comment between elements
  "Bash(npm test:*)"  # tests
] # end of allow
deny = ["Read(./.env)"]

[[hooks.PreToolUse]]
matcher = "Bash"
command = """
echo 'multi-line [not an array] = nope'
"""

[context]
compact_at_percent = 80 # lower than default
`

function append(text: string, value: string, key = 'allow') {
  const result = appendToTomlArray(text, ['permissions'], key, value)
  if (!result.ok) throw new Error(result.error)
  return result
}

describe('appendToTomlArray', () => {
  it('appends to a multi-line array keeping every comment, key and layout', () => {
    const result = append(COMMENTED, 'Bash(git status:*)')
    expect(result.changed).toBe(true)
    // Every original line survives (one gained a comma), in order.
    const original = COMMENTED.split('\n')
    const edited = result.text.split('\n')
    expect(edited.length).toBe(original.length + 1)
    expect(result.text).toContain('  "Bash(npm test:*)",  # tests\n  "Bash(git status:*)"\n] # end of allow')
    for (const line of original.filter((line) => line.includes('#'))) {
      expect(result.text).toContain(
        line.replace('"Bash(npm test:*)"  # tests', '"Bash(npm test:*)",  # tests'),
      )
    }
    const parsed = parse(result.text) as {
      permissions: { allow: string[]; deny: string[] }
      context: unknown
      hooks: unknown
    }
    expect(parsed.permissions.allow).toEqual(['Read(./src/**)', 'Bash(npm test:*)', 'Bash(git status:*)'])
    expect(parsed.permissions.deny).toEqual(['Read(./.env)'])
  })

  it('does nothing when the rule is already there', () => {
    const result = append(COMMENTED, 'Bash(npm test:*)')
    expect(result).toEqual({ ok: true, text: COMMENTED, changed: false })
  })

  it('adds the key to an existing table that lacks it', () => {
    const result = append(COMMENTED, '/srv/data', 'additional_directories')
    expect(result.text).toContain(
      '[permissions] # the permissions table\nadditional_directories = ["/srv/data"]\n# Rules the team agreed on:',
    )
  })

  it('extends single-line arrays, empty ones, and ones with a trailing comma', () => {
    expect(append('[permissions]\nallow = ["a"] # x\n', 'b').text).toBe(
      '[permissions]\nallow = ["a", "b"] # x\n',
    )
    expect(append('[permissions]\nallow = []\n', 'b').text).toBe('[permissions]\nallow = ["b"]\n')
    expect(append('[permissions]\nallow = [\n    "a",\n]\n', 'b').text).toBe(
      '[permissions]\nallow = [\n    "a",\n    "b",\n]\n',
    )
  })

  it('creates the table in an empty or unrelated file, and handles root dotted keys', () => {
    expect(append('', 'Read').text).toBe('[permissions]\nallow = ["Read"]\n')
    expect(append('# only a comment', 'Read').text).toBe(
      '# only a comment\n\n[permissions]\nallow = ["Read"]\n',
    )
    expect(append('permissions.deny = ["X"] # d\n[model]\nname = "m"\n', 'Read').text).toBe(
      'permissions.deny = ["X"] # d\npermissions.allow = ["Read"]\n[model]\nname = "m"\n',
    )
  })

  it('escapes values as TOML strings', () => {
    const result = append('', 'Bash(echo "hi" \\ there)')
    expect((parse(result.text) as { permissions: { allow: string[] } }).permissions.allow).toEqual([
      'Bash(echo "hi" \\ there)',
    ])
  })

  it('refuses, without changing anything, when the file is broken or the key is not an array', () => {
    expect(appendToTomlArray('[permissions\nallow = [', ['permissions'], 'allow', 'x')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not valid TOML/),
    })
    expect(appendToTomlArray('[permissions]\nallow = "x"\n', ['permissions'], 'allow', 'y')).toMatchObject({
      ok: false,
      error: 'permissions.allow is not an array',
    })
    expect(appendToTomlArray('permissions = { deny = [] }\n', ['permissions'], 'allow', 'y')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/inline table/),
    })
  })
})

describe('persistAllowRule / persistAdditionalDirectory', () => {
  it('creates settings.local.toml when missing, then appends to it keeping comments', async () => {
    const root = mkdtempSync(join(tmpdir(), 'z-persist-'))
    try {
      const first = await persistAllowRule(root, 'Bash(npm test:*)')
      expect(first).toEqual({ ok: true, file: localSettingsFile(root), changed: true })
      expect(readFileSync(localSettingsFile(root), 'utf8')).toBe(
        '[permissions]\nallow = ["Bash(npm test:*)"]\n',
      )

      writeFileSync(localSettingsFile(root), COMMENTED)
      expect(await persistAllowRule(root, 'WebFetch(domain:example.com)')).toMatchObject({
        ok: true,
        changed: true,
      })
      expect(await persistAdditionalDirectory(root, '/opt/shared')).toMatchObject({ ok: true, changed: true })
      const text = readFileSync(localSettingsFile(root), 'utf8')
      expect(
        text.startsWith(
          '# Local settings — keep this file out of git.\n# Written by hand; the engine must keep every comment.\n',
        ),
      ).toBe(true)
      expect(text).toContain('compact_at_percent = 80 # lower than default')
      const parsed = parse(text) as { permissions: { allow: string[]; additional_directories: string[] } }
      expect(parsed.permissions.allow.at(-1)).toBe('WebFetch(domain:example.com)')
      expect(parsed.permissions.additional_directories).toEqual(['/opt/shared'])
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('leaves a broken file untouched and says why', async () => {
    const root = mkdtempSync(join(tmpdir(), 'z-persist-'))
    try {
      mkdirSync(join(root, '.z-engine'))
      writeFileSync(localSettingsFile(root), 'allow = [\n')
      const result = await persistAllowRule(root, 'Read')
      expect(result.ok).toBe(false)
      if (!result.ok)
        expect(result.error).toMatch(
          /Could not add "Read" to permissions.allow in .*settings.local.toml: it is not valid TOML/,
        )
      expect(readFileSync(localSettingsFile(root), 'utf8')).toBe('allow = [\n')
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  })
})
