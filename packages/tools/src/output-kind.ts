/**
 * The result category a tool declares for the semantic output budget (spec 004 "Tools and
 * Capabilities"): files, search matches, test output, process logs, diffs, worker conclusions, and
 * `text` for anything else (head and tail).
 */
export type OutputKind = 'file' | 'search' | 'test' | 'log' | 'diff' | 'conclusion' | 'text'
