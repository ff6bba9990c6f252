/** A file a command touches: a known path, a glob below a known folder, or unknown. */
export type Target =
  | { kind: 'path'; path: string }
  | { kind: 'glob'; base: string; pattern: string }
  | { kind: 'unknown'; text: string }
