/**
 * File names that make a program run something unasked, shared by the policy (a change to one asks)
 * and the sandbox (a confined command sees them read-only, and may not create them). One list so the
 * two never disagree about what is protected (issue 34).
 */

/**
 * Toolchain and environment files, by name at any depth: rustup reads `rust-toolchain`, mise and
 * asdf `.tool-versions`, direnv runs `.envrc`, version managers pick the interpreter by these.
 */
export const TOOLCHAIN_FILE_NAMES: readonly string[] = [
  'rust-toolchain',
  'rust-toolchain.toml',
  '.tool-versions',
  '.mise.toml',
  'mise.toml',
  '.mise.local.toml',
  'mise.local.toml',
  '.envrc',
  '.nvmrc',
  '.node-version',
  '.python-version',
  '.ruby-version',
  '.java-version',
  '.go-version',
  '.sdkmanrc',
]

/**
 * Git hook managers' configuration, by name at any depth: the hook git runs on commit is the
 * manager's shim, and these files say what it runs (pre-commit's `repo: local` entries, lefthook's
 * commands, simple-git-hooks').
 */
export const HOOK_CONFIG_FILE_NAMES: readonly string[] = [
  '.pre-commit-config.yaml',
  '.pre-commit-config.yml',
  'lefthook.yml',
  'lefthook.yaml',
  '.lefthook.yml',
  '.lefthook.yaml',
  'lefthook-local.yml',
  '.lefthook-local.yml',
  '.simple-git-hooks.json',
  '.simple-git-hooks.js',
  '.simple-git-hooks.cjs',
  'simple-git-hooks.json',
  'simple-git-hooks.js',
  'simple-git-hooks.cjs',
]

/**
 * Files that make the user's own tools run code the next time they run, by name at any depth
 * (issue 34): package managers' configuration (`.npmrc`: `script-shell`, `node-options`, `git`,
 * `prefix`, `globalconfig`; `.yarnrc`/`.yarnrc.yml`: `yarnPath`, plugins; `.pnpmfile.*` and
 * `pnpm-workspace.yaml`: install hooks and settings; `bunfig.toml`: preload scripts), start files
 * interactive tools load from the folder they start in, and `.devcontainer.json`
 * (`initializeCommand` runs on the host). Ordinary sources (`package.json`, `pyproject.toml`) are
 * not here: docs/permissions.md says why.
 */
export const TOOL_CONFIG_FILE_NAMES: readonly string[] = [
  '.npmrc',
  '.yarnrc',
  '.yarnrc.yml',
  '.pnpmfile.cjs',
  '.pnpmfile.mjs',
  'pnpm-workspace.yaml',
  'bunfig.toml',
  '.bunfig.toml',
  '.irbrc',
  '.pryrc',
  '.Rprofile',
  '.gdbinit',
  '.lldbinit',
  '.exrc',
  '.nvimrc',
  '.nvim.lua',
  '.dir-locals.el',
  '.dir-locals-2.el',
  '.devcontainer.json',
]
