import { expect, it } from 'vitest'
import * as policy from '../src/index.js'

it('keeps its public runtime surface deliberate', () => {
  expect(Object.keys(policy).sort()).toMatchInlineSnapshot(`
    [
      "MAX_SHELL_LINE",
      "NO_RULES",
      "READ_ONLY_COMMANDS",
      "admitAddress",
      "admitUrl",
      "analyzeLine",
      "buildRuleSet",
      "decide",
      "isAmbiguousPath",
      "isTrustGated",
      "isWithin",
      "lexShell",
      "normalizeMode",
      "normalizePath",
      "parseRule",
      "pathRuleMatches",
      "protectedReason",
      "provesReadOnly",
      "readDenied",
      "relativeTo",
      "resolvePath",
      "sedScriptIsReadOnly",
      "suggestBashRule",
      "trustGatedCategories",
      "unwrapLine",
    ]
  `)
})
