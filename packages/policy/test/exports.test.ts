import { expect, it } from 'vitest'
import * as policy from '../src/index.js'

it('keeps its public runtime surface deliberate', () => {
  expect(Object.keys(policy).sort()).toMatchInlineSnapshot(`
    [
      "ENGINE_CREDENTIAL_VARIABLES",
      "MAX_SHELL_LINE",
      "MIN_KNOWN_SECRET_LENGTH",
      "NEUTRALISED_GIT_KEYS",
      "NO_RULES",
      "READ_ONLY_COMMANDS",
      "SECRET_RULES",
      "admitAddress",
      "admitUrl",
      "analyzeLine",
      "buildRuleSet",
      "createRedactor",
      "decide",
      "isAmbiguousPath",
      "isInScope",
      "isLooserMode",
      "isTrustGated",
      "isWithin",
      "knownSecretsFrom",
      "lexShell",
      "normalizeMode",
      "normalizePath",
      "parseRule",
      "pathFactsFromLinks",
      "pathRuleMatches",
      "protectedIn",
      "protectedReason",
      "provesReadOnly",
      "readDenied",
      "relativeTo",
      "repositoryGitProgram",
      "resolvePath",
      "ruleMatchesCall",
      "sedScriptIsReadOnly",
      "subagentMode",
      "suggestBashRule",
      "trustGatedCategories",
      "unwrapLine",
    ]
  `)
})
