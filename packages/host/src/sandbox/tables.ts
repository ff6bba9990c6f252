import { HOOK_CONFIG_FILE_NAMES, TOOL_CONFIG_FILE_NAMES, TOOLCHAIN_FILE_NAMES } from '@z-engine/protocol'

/**
 * The sandbox profile's fixed lists (spec 000 "Sandbox"). Paths starting with `~/` are relative to
 * the user's home; an entry whose `env` variable is set uses that variable's value instead.
 */

/** A known tool cache that confined builds may write (the one table of them). */
export interface ToolCache {
  tool: string
  /** Where it lives by default (`~/` = home). */
  path: string
  /** A variable that moves it, when the tool has one. */
  env?: string
}

/**
 * The usual tool caches (npm, pnpm, yarn, pip, cargo, go, gradle, maven). Nothing of them is in the
 * confined view unless `[shell.sandbox] write_paths` (or `read_paths`) names it: a cache writable by
 * confined code could be poisoned for the next unconfined build. `z-engine doctor` and the docs list
 * them as recipes.
 */
export const TOOL_CACHES: readonly ToolCache[] = [
  { tool: 'npm', path: '~/.npm', env: 'npm_config_cache' },
  { tool: 'pnpm', path: '~/.local/share/pnpm', env: 'PNPM_HOME' },
  { tool: 'pnpm', path: '~/.cache/pnpm' },
  { tool: 'pnpm', path: '~/Library/pnpm' },
  { tool: 'yarn', path: '~/.cache/yarn', env: 'YARN_CACHE_FOLDER' },
  { tool: 'yarn', path: '~/.yarn/berry' },
  { tool: 'yarn', path: '~/Library/Caches/Yarn' },
  { tool: 'pip', path: '~/.cache/pip', env: 'PIP_CACHE_DIR' },
  { tool: 'pip', path: '~/Library/Caches/pip' },
  { tool: 'cargo', path: '~/.cargo/registry' },
  { tool: 'cargo', path: '~/.cargo/git' },
  { tool: 'go', path: '~/.cache/go-build', env: 'GOCACHE' },
  { tool: 'go', path: '~/Library/Caches/go-build' },
  { tool: 'go', path: '~/go/pkg/mod', env: 'GOMODCACHE' },
  { tool: 'gradle', path: '~/.gradle/caches' },
  { tool: 'gradle', path: '~/.gradle/wrapper' },
  { tool: 'maven', path: '~/.m2/repository' },
]

/**
 * The user's secrets. The confined view's home is empty, so these matter only when a setting binds
 * a folder holding one (`read_paths = ["~"]`): then they are covered by an empty folder or file.
 */
export const SECRET_PATHS: readonly string[] = [
  '~/.ssh',
  '~/.aws',
  '~/.gnupg',
  '~/.config/gcloud',
  '~/.azure',
  '~/.kube',
  '~/.docker/config.json',
  '~/.netrc',
  '~/.git-credentials',
  '~/.config/gh',
  '~/.local/share/keyrings',
  '~/Library/Keychains',
  '~/.npmrc',
  '~/.pypirc',
  '~/.cargo/credentials',
  '~/.cargo/credentials.toml',
  '~/.gitconfig',
  '~/.config/git/credentials',
  '~/.bash_history',
  '~/.zsh_history',
  '~/.python_history',
  '~/.node_repl_history',
  '~/.psql_history',
  '~/.mysql_history',
  '~/.lesshst',
  '~/.viminfo',
  '~/.local/share/fish/fish_history',
  '~/.config/z-engine',
  '~/.local/share/z-engine',
  '~/.claude',
  '~/.claude.json',
  '~/.codex',
  // Issue 34's red team, more of the same kind: database and vault credentials, registry and
  // package-manager tokens, cloud CLIs, browsers' cookies and the editors' token stores.
  '~/.pgpass',
  '~/.my.cnf',
  '~/.vault-token',
  '~/.password-store',
  '~/.terraform.d',
  '~/.gem/credentials',
  '~/.bundle/config',
  '~/.yarnrc',
  '~/.yarnrc.yml',
  '~/.m2/settings.xml',
  '~/.m2/settings-security.xml',
  '~/.gradle/gradle.properties',
  '~/.nuget/NuGet/NuGet.Config',
  '~/.config/composer/auth.json',
  '~/.config/containers/auth.json',
  '~/.config/hub',
  '~/.config/rclone',
  '~/.config/op',
  '~/.config/doctl',
  '~/.oci',
  '~/.config/sops',
  '~/.mozilla',
  '~/.config/google-chrome',
  '~/.config/chromium',
  '~/.config/BraveSoftware',
  '~/.config/Code/User/globalStorage',
  '~/.sh_history',
  '~/.zhistory',
  '~/.irb_history',
  '~/.sqlite_history',
  '~/.rediscli_history',
]

/**
 * The system folders every confined view shows read-only (what a shell, git and the usual
 * toolchains need). A merged-/usr machine's `/bin` or `/lib` symlink is recreated as a symlink.
 * Nothing else of `/` is there: no `/home`, `/root`, `/run`, `/var`, `/mnt`, `/media`, `/srv`.
 */
export const SYSTEM_DIRS: readonly string[] = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/opt',
  '/nix/store',
]

/**
 * The entries of `/etc` a confined view shows (an allowlist: users and groups without their
 * password hashes, name resolution, certificates, the dynamic linker, locale and time, shell start
 * files, language runtimes' own folders). `shadow`, `gshadow`, `sudoers`, `ssh` (host keys),
 * `ssl/private`, `npmrc`/`pip.conf` (may hold registry tokens) and the rest are not in it.
 * A name ending in `*` is a prefix.
 */
export const ETC_ENTRIES: readonly string[] = [
  'passwd',
  'group',
  'hosts',
  'hostname',
  'resolv.conf',
  'nsswitch.conf',
  'host.conf',
  'gai.conf',
  'services',
  'protocols',
  'networks',
  'ssl/certs',
  'ssl/openssl.cnf',
  'ca-certificates',
  'ca-certificates.conf',
  'pki/tls/certs',
  'pki/ca-trust',
  'crypto-policies',
  'alternatives',
  'ld.so.cache',
  'ld.so.conf',
  'ld.so.conf.d',
  'localtime',
  'timezone',
  'locale.alias',
  'locale.conf',
  'locale.gen',
  'default/locale',
  'os-release',
  'lsb-release',
  'debian_version',
  'issue',
  'mime.types',
  'magic',
  'magic.mime',
  'shells',
  'profile',
  'profile.d',
  'bash.bashrc',
  'inputrc',
  'environment',
  'terminfo',
  'gitconfig',
  'gitattributes',
  'manpath.config',
  'xml',
  'sgml',
  'fonts',
  'java*',
  '.java',
  'maven',
  'python*',
  'perl',
  'ruby*',
  'gdb',
  'vim',
  'mtab',
]

/**
 * A project's toolchain files: they choose which compiler, runtime or environment the next build
 * runs (a `rust-toolchain.toml` naming a path toolchain runs that path). Confined commands cannot
 * write them: existing ones are bound read-only, missing ones are removed again when the command
 * ends (an empty placeholder would show up in `git status`). The policy's names (one list in
 * `@z-engine/protocol`) and the `.cargo` and `.mise` folders, which the policy protects by folder.
 */
export const TOOLCHAIN_FILES: readonly string[] = [...TOOLCHAIN_FILE_NAMES, '.cargo', '.mise']

/**
 * Git hook managers' configuration at the root: the hook git runs on the next commit is the
 * manager's shim, and these files say what it runs (pre-commit's `repo: local` entries, lefthook's
 * commands, simple-git-hooks'). Treated like {@link TOOLCHAIN_FILES}: existing ones read-only,
 * missing ones removed again after the command. The policy's list, from `@z-engine/protocol`.
 */
export const HOOK_CONFIG_FILES: readonly string[] = HOOK_CONFIG_FILE_NAMES

/**
 * Files that make the user's own tools run code the next time they run (issue 34): protocol's
 * `TOOL_CONFIG_FILE_NAMES` (the same names the policy protects), plus the code `yarnPath` and
 * yarn's plugins name (`.yarn/releases`, `.yarn/plugins`), dev containers' folder, editors' folders
 * not in {@link PROTECTED_IN_ROOT} and mise's `.config` files. Treated like {@link TOOLCHAIN_FILES}.
 */
export const TOOL_CONFIG_FILES: readonly string[] = [
  ...TOOL_CONFIG_FILE_NAMES,
  '.yarn/releases',
  '.yarn/plugins',
  '.devcontainer',
  '.zed',
  '.helix',
  '.config/mise',
  '.config/mise.toml',
]

/**
 * Inside the agent's root, these stay read-only even where the root is writable: the harness's own
 * settings (hooks, permissions, MCP servers, agents, commands and skills), husky's hook scripts
 * (`core.hooksPath = .husky/_` runs `.husky/pre-commit`) and the editors' folders (task, launch and
 * run configurations name commands the editor runs). Folders whole, so nothing inside can be
 * swapped by renaming a folder between it and the file. Git's own folder: {@link GIT_CONTROL}.
 */
export const PROTECTED_IN_ROOT: readonly string[] = [
  '.z-engine',
  '.claude',
  '.mcp.json',
  '.husky',
  '.vscode',
  '.idea',
  '.run',
]

/** A path git reads as configuration or runs from, relative to a git folder. */
export interface GitControlPath {
  name: string
  kind: 'dir' | 'file'
  /**
   * What a placeholder file holds when the path is missing: `commondir` must read as `.` (the
   * folder itself), since git refuses a repository whose `commondir` is empty.
   */
  seed?: string
}

/**
 * What a confined command may not change in a repository's (common) git folder: the hooks, the
 * configuration, `info/` (attributes and excludes), and what re-points the configuration or adds
 * more of it — `commondir` (git then reads `<commondir>/config` and its hooks instead),
 * `config.worktree`, submodules' git folders (`modules/`: their config and hooks) and linked
 * worktrees' admin folders (`worktrees/`: each has its own `commondir` and `config.worktree`).
 * Objects, refs, logs, the index and HEAD stay writable, so commits work.
 */
export const GIT_CONTROL: readonly GitControlPath[] = [
  { name: 'hooks', kind: 'dir' },
  { name: 'config', kind: 'file' },
  { name: 'info', kind: 'dir' },
  { name: 'commondir', kind: 'file', seed: '.\n' },
  { name: 'config.worktree', kind: 'file' },
  { name: 'modules', kind: 'dir' },
  { name: 'worktrees', kind: 'dir' },
]

/** In a linked worktree's own admin folder (`<common>/worktrees/<id>`): what points it elsewhere. */
export const WORKTREE_GIT_CONTROL: readonly GitControlPath[] = [
  { name: 'commondir', kind: 'file' },
  { name: 'gitdir', kind: 'file' },
  { name: 'config.worktree', kind: 'file' },
]
