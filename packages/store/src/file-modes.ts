/**
 * Session logs, artifacts and checkpoints hold source code, command output and conversation: only
 * the user may read them. Directories are created 0700 and files 0600 (the umask can only narrow).
 */

/** Mode of every directory the store creates. */
export const PRIVATE_DIR_MODE = 0o700
/** Mode of every file the store creates. */
export const PRIVATE_FILE_MODE = 0o600
