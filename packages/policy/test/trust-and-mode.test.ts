import { describe, expect, it } from 'vitest'
import { isTrustGated, normalizeMode, trustGatedCategories } from '../src/index.js'

describe('normalizeMode', () => {
  it.each([
    ['default', 'default'],
    ['acceptEdits', 'acceptEdits'],
    ['plan', 'plan'],
    ['bypass', 'bypass'],
    ['bypassPermissions', 'bypass'],
    ['BYPASS', undefined],
    ['', undefined],
    [undefined, undefined],
    [3, undefined],
  ])('%j → %j', (input, expected) => {
    expect(normalizeMode(input)).toBe(expected)
  })
})

describe('trust gating', () => {
  it('lists exactly the categories of spec 000 "Workspace trust"', () => {
    expect(trustGatedCategories().map((category) => category.key)).toEqual([
      'hooks',
      'mcp_servers',
      'verification.checks',
      'permissions.default_mode',
      'permissions.allow',
      'permissions.additional_directories',
      'permissions.auto_allow_read_only_bash',
      'shell',
      'provider',
      'web',
      'lsp',
      'decisions',
    ])
  })
  it.each([
    ['hooks', true],
    ['shell.sandbox.enabled', true],
    ['permissions.allow', true],
    ['permissions.deny', false],
    ['permissions.ask', false],
    ['model', false],
    ['webhooks', false],
  ])('%s gated: %s', (key, gated) => {
    expect(isTrustGated(key)).toBe(gated)
  })
})
