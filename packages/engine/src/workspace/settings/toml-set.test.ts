import { describe, expect, it } from 'vitest'
import { setTomlBoolean } from './toml-set.js'

const table = ['plugins', 'enabled']

describe('setTomlBoolean', () => {
  it('adds the table at the end, keeping comments', () => {
    const edit = setTomlBoolean('# mine\n[model]\nname = "x"\n', table, 'a@m', true)
    expect(edit).toEqual({
      ok: true,
      changed: true,
      text: '# mine\n[model]\nname = "x"\n\n[plugins.enabled]\n"a@m" = true\n',
    })
  })

  it('adds a key under an existing header, replaces a value in place, and removes a line', () => {
    const text = '[plugins.enabled]\n"a@m" = true # keep\n\n[model]\nname = "x"\n'
    const added = setTomlBoolean(text, table, 'b@m', false)
    expect(added.ok && added.text).toBe(
      '[plugins.enabled]\n"b@m" = false\n"a@m" = true # keep\n\n[model]\nname = "x"\n',
    )
    const replaced = setTomlBoolean(text, table, 'a@m', false)
    expect(replaced.ok && replaced.text).toBe(
      '[plugins.enabled]\n"a@m" = false # keep\n\n[model]\nname = "x"\n',
    )
    const removed = setTomlBoolean(text, table, 'a@m', undefined)
    expect(removed.ok && removed.text).toBe('[plugins.enabled]\n\n[model]\nname = "x"\n')
    expect(setTomlBoolean(text, table, 'a@m', true)).toEqual({ ok: true, text, changed: false })
  })

  it('edits a dotted key in place and refuses an inline table or broken TOML', () => {
    const dotted = setTomlBoolean('plugins.enabled."a@m" = true\n', table, 'a@m', false)
    expect(dotted.ok && dotted.text).toBe('plugins.enabled."a@m" = false\n')
    expect(setTomlBoolean('plugins = { enabled = { "a@m" = true } }\n', table, 'b@m', true).ok).toBe(false)
    expect(setTomlBoolean('[plugins\n', table, 'b@m', true)).toMatchObject({ ok: false })
  })
})
