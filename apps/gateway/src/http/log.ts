/** The gateway's log: one JSON line per record on a stream, with secrets redacted. */
import type { Writable } from 'node:stream'

/** Writes one record. */
export type Logger = (record: Record<string, unknown>) => void

/** Replaces every occurrence of the given secrets (API keys, DB passwords) with `***`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('***')
  // A URL's password ends at its '@' and never holds a '/', a quote or a blank (they are encoded): the
  // match stays inside one URL, so a later URL's '@' cannot swallow the host, port and user between.
  return out.replace(/(bearer\s+)[^\s"',]+/gi, '$1***').replace(/(\/\/[^:/@\s"',]+:)[^@\s/"',]*@/g, '$1***@')
}

/** A logger writing JSON lines, redacting `secrets` and anything that looks like a credential. */
export function jsonLogger(stream: Writable, secrets: readonly string[]): Logger {
  return (record) => {
    stream.write(`${redactSecrets(JSON.stringify({ time: new Date().toISOString(), ...record }), secrets)}\n`)
  }
}
