/**
 * The defaults and limits spec 003 fixes for context handling, in one place so the engine's settings
 * defaults and the planners agree.
 */

/** Window assumed for models the catalog does not know (`model.context_window` overrides it). */
export const DEFAULT_CONTEXT_WINDOW = 128_000

/** `context.compact_at_percent`: summary compaction starts above this share of the window. */
export const DEFAULT_COMPACT_AT_PERCENT = 92

/** The lowest `context.compact_at_percent` accepted. */
export const MIN_COMPACT_AT_PERCENT = 50

/** The highest `context.compact_at_percent` accepted. */
export const MAX_COMPACT_AT_PERCENT = 99

/** Clearing old tool results starts above this share of the window. */
export const MICRO_CLEAR_AT_PERCENT = 50

/** `context.keep_recent_tool_results`: the newest large tool results that are never cleared. */
export const DEFAULT_KEEP_RECENT_TOOL_RESULTS = 8

/** Tool results shorter than this many characters are never cleared (clearing them saves little). */
export const MICRO_CLEAR_MIN_CHARS = 1_000

/** `context.repo_map_chars`: the repository map is cut to this many characters. */
export const DEFAULT_REPO_MAP_CHARS = 6_000

/** The repo-map walk stops after this many paths. */
export const REPO_MAP_MAX_PATHS = 20_000

/** At most this many source files are outlined. */
export const REPO_MAP_MAX_FILES = 400

/** Source files larger than this are skipped (usually generated). */
export const REPO_MAP_MAX_FILE_BYTES = 200 * 1024

/** Each instruction file is cut at this many bytes. */
export const INSTRUCTION_MAX_BYTES = 64 * 1024

/**
 * `@path` imports inside instruction files are followed at most this many hops: Claude Code 2.1.332
 * loads CLAUDE.md → a1 → a2 → a3 → a4 and not a5 (its docs say "five hops", counting the file itself).
 */
export const INSTRUCTION_MAX_IMPORT_HOPS = 4

/** The estimate for one image or other media block. */
export const MEDIA_TOKENS = 1_600
