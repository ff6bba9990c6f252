import type { PermissionMode } from '@z-engine/protocol'
import { describe, expect, it } from 'vitest'
import {
  isLooserMode,
  isTrustGated,
  normalizeMode,
  subagentMode,
  trustGatedCategories,
} from '../src/index.js'

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
      'plugins',
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

describe('subagentMode: project definitions never run looser than their caller (finding 6)', () => {
  it.each<[PermissionMode, PermissionMode | undefined, boolean, PermissionMode, PermissionMode | undefined]>([
    ['default', 'bypass', true, 'default', 'bypass'],
    ['default', 'acceptEdits', true, 'default', 'acceptEdits'],
    ['plan', 'default', true, 'plan', 'default'],
    ['acceptEdits', 'acceptEdits', true, 'acceptEdits', undefined],
    ['acceptEdits', 'plan', true, 'plan', undefined],
    ['bypass', 'default', true, 'default', undefined],
    ['default', undefined, true, 'default', undefined],
    // Built-in and user definitions are the user's own.
    ['default', 'bypass', false, 'bypass', undefined],
    ['acceptEdits', 'plan', false, 'plan', undefined],
  ])('caller %s, definition %s (project: %s) → %s', (caller, requested, fromProject, mode, refused) => {
    const result = subagentMode(caller, requested, fromProject)
    expect(result.mode).toBe(mode)
    expect(result.refused).toBe(refused)
  })

  it('orders modes from strict to loose', () => {
    expect(isLooserMode('bypass', 'acceptEdits')).toBe(true)
    expect(isLooserMode('acceptEdits', 'default')).toBe(true)
    expect(isLooserMode('default', 'plan')).toBe(true)
    expect(isLooserMode('plan', 'default')).toBe(false)
  })
})
