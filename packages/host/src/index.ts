export { pathExists } from './fs/path-exists.js'
export { checkpointRepoDir } from './git/checkpoint-paths.js'
export type {
  CheckpointDiff,
  CheckpointFileChange,
  CheckpointResult,
  CheckpointSnapshot,
  HunkRevert,
  RestoreOptions,
  RestoreReport,
  ShadowCheckpointsOptions,
} from './git/checkpoint-types.js'
export {
  DEFAULT_MAX_CHECKPOINT_BYTES,
  DEFAULT_MAX_CHECKPOINT_FILE_BYTES,
  DEFAULT_MAX_CHECKPOINT_FILES,
} from './git/checkpoint-types.js'
export type { GitConfigListing } from './git/git-config-entries.js'
export { gitConfigEntries } from './git/git-config-entries.js'
export type { GitContext, GitOutput, GitRunOptions } from './git/git-runner.js'
export { GitCommandError, gitEnvironment, runGit } from './git/git-runner.js'
export type { HooksFolderOptions } from './git/hooks-folder.js'
export { gitHooksFolder, prefetchGitHooksFolder } from './git/hooks-folder.js'
export type { MergeConflict } from './git/merge-file.js'
export { withNeutralGit } from './git/neutral-git.js'
export type { ProjectGitOptions, ProjectGitResult } from './git/project-git.js'
export { projectGit } from './git/project-git.js'
export { ShadowCheckpoints } from './git/shadow-checkpoints.js'
export type {
  AgentWorktree,
  ProjectRepository,
  WorktreeCommit,
  WorktreeGitOptions,
  WorktreeResult,
} from './git/worktree.js'
export {
  AGENT_WORKTREES_DIR,
  adoptAgentWorktree,
  agentBranchDiff,
  commitAgentWorktree,
  createAgentWorktree,
  findProjectRepository,
  openAgentWorktree,
  pruneAgentWorktrees,
  removeAgentWorktree,
} from './git/worktree.js'
export type { WorktreeMerge } from './git/worktree-merge.js'
export { mergeAgentBranch } from './git/worktree-merge.js'
export type {
  BackgroundInfo,
  BackgroundProcessesOptions,
  BackgroundRead,
  BackgroundStatus,
} from './process/background.js'
export { BackgroundProcesses, DEFAULT_RING_BYTES } from './process/background.js'
export type { EnvPolicy } from './process/env-policy.js'
export {
  absolutePathEntries,
  CORE_ENV_NAMES,
  childEnvironment,
  DEFAULT_ENV_POLICY,
  envNameMatcher,
  isSecretLikeName,
} from './process/env-policy.js'
export {
  DEFAULT_KILL_GRACE_MS,
  isProcessAlive,
  killProcesses,
  killProcessTree,
  processTree,
} from './process/kill-tree.js'
export type { CapturedOutput } from './process/output-buffer.js'
export { HeadTailBuffer } from './process/output-buffer.js'
export { ProcessScope } from './process/process-scope.js'
export type { RingRead } from './process/ring-buffer.js'
export { RingBuffer } from './process/ring-buffer.js'
export type { ProcessResult, RunProcessOptions } from './process/run-process.js'
export { clampTimeout, DEFAULT_TIMEOUT_MS, MAX_TIMEOUT_MS, runProcess } from './process/run-process.js'
export type { CommandWrapper, ShellRunOptions, ShellRunResult } from './process/shell.js'
export { findShell, PersistentShell, runShellCommand } from './process/shell.js'
export type { SpawnSupervisedOptions } from './process/spawn-supervised.js'
export { spawnSupervised } from './process/spawn-supervised.js'
export type { ProcessExit, StartedProcess, StartProcessOptions } from './process/start-process.js'
export { startProcess } from './process/start-process.js'
export { killSupervisedGroups, watchdogPid } from './process/supervisor.js'
export { planBubblewrap } from './sandbox/bwrap-plan.js'
export type { ArgvConfiner, ConfinedArgv } from './sandbox/confine-argv.js'
export { confineArgv } from './sandbox/confine-argv.js'
export type { DetectOptions, SandboxBackend } from './sandbox/detect.js'
export { detectSandboxBackend } from './sandbox/detect.js'
export type { BoundFile, ProfilePath, SandboxMode, SandboxProfile, SystemEntry } from './sandbox/profile.js'
export type { ProfileRequest } from './sandbox/resolve-profile.js'
export { resolveProfile } from './sandbox/resolve-profile.js'
export type { CommandSandbox, ConfinedShellResult } from './sandbox/run-confined.js'
export { neutralisesGit, runConfinedShell } from './sandbox/run-confined.js'
export type { PreparedSandbox, SandboxRequest, SandboxSettings } from './sandbox/sandbox.js'
export { Sandbox, sandboxModeFor } from './sandbox/sandbox.js'
export { planSeatbelt, SANDBOX_EXEC, seatbeltProfileText } from './sandbox/seatbelt-plan.js'
export type { ToolCache } from './sandbox/tables.js'
export {
  ETC_ENTRIES,
  PROTECTED_IN_ROOT,
  SECRET_PATHS,
  SYSTEM_DIRS,
  TOOL_CACHES,
  TOOLCHAIN_FILES,
} from './sandbox/tables.js'
