import { describe, expect, it } from 'vitest'
import * as entry from './index.js'

describe('public surface', () => {
  it('exports exactly these runtime names', () => {
    expect(Object.keys(entry).sort()).toMatchInlineSnapshot(`
      [
        "AGENT_WORKTREES_DIR",
        "BackgroundProcesses",
        "CORE_ENV_NAMES",
        "DEFAULT_ENV_POLICY",
        "DEFAULT_KILL_GRACE_MS",
        "DEFAULT_MAX_CHECKPOINT_BYTES",
        "DEFAULT_MAX_CHECKPOINT_FILES",
        "DEFAULT_MAX_CHECKPOINT_FILE_BYTES",
        "DEFAULT_RING_BYTES",
        "DEFAULT_TIMEOUT_MS",
        "GitCommandError",
        "HeadTailBuffer",
        "MAX_TIMEOUT_MS",
        "PersistentShell",
        "RingBuffer",
        "ShadowCheckpoints",
        "checkpointRepoDir",
        "childEnvironment",
        "clampTimeout",
        "commitAgentWorktree",
        "createAgentWorktree",
        "envNameMatcher",
        "findProjectRepository",
        "findShell",
        "gitEnvironment",
        "isProcessAlive",
        "isSecretLikeName",
        "killProcessTree",
        "killProcesses",
        "killSupervisedGroups",
        "mergeAgentBranch",
        "openAgentWorktree",
        "processTree",
        "pruneAgentWorktrees",
        "removeAgentWorktree",
        "runGit",
        "runProcess",
        "runShellCommand",
        "startProcess",
        "watchdogPid",
      ]
    `)
  })
})
