import { copyFile, link, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { LogHeader } from '@z-engine/protocol'
import { JsonlAppender } from './appender.js'
import { PRIVATE_DIR_MODE } from './file-modes.js'
import { LegacyRecordReader } from './legacy-records.js'
import { readJsonl } from './line-reader.js'
import { makeDirectories } from './make-directories.js'
import { agentLogPath, type SessionPaths } from './paths.js'

/** What a fork copied. */
export interface ForkCopy {
  /** The title in effect at the cut, if any. */
  title?: string
  found: boolean
}

/**
 * Copies `source`'s log up to and including `uptoRecordId` into `target` (a new, empty session
 * dir), rewriting the header with the new identity and parent link. Corrupt lines are dropped;
 * format-2 records are upgraded. Agent logs of agents that appear before the cut (each keeps its
 * own header and format), and every artifact, come along.
 */
export async function copyLogUpTo(
  source: SessionPaths,
  target: SessionPaths,
  uptoRecordId: string,
  header: (original: LogHeader | undefined, lastMessageId: string | undefined) => LogHeader,
): Promise<ForkCopy> {
  const lines: string[] = []
  const agents = new Set<string>()
  let original: LogHeader | undefined
  let lastMessageId: string | undefined
  let title: string | undefined
  let found = false
  // The fork's header says today's format, so format-2 lines are copied in today's shape.
  const legacy = new LegacyRecordReader()
  for await (const entry of readJsonl(source.log, 'log.jsonl')) {
    if (entry.type === 'problem') continue
    const record = legacy.upgrade(entry.value) as { type?: unknown; id?: unknown } & Record<string, unknown>
    if (record.type === 'header' && original === undefined) {
      original = record as unknown as LogHeader
    } else {
      lines.push(JSON.stringify(record))
      if (record.type === 'messageRecorded')
        lastMessageId = (record.message as { id?: string } | undefined)?.id
      if (record.type === 'titleChanged' && typeof record.title === 'string') title = record.title
      if (record.type === 'agentUpdated') {
        const agentId = (record.agent as { id?: unknown } | undefined)?.id
        if (typeof agentId === 'string') agents.add(agentId)
      }
    }
    if (record.id === uptoRecordId) {
      found = true
      break
    }
  }
  if (!found) return { found }
  await makeDirectories(target.dir, PRIVATE_DIR_MODE)
  const appender = await JsonlAppender.open(target.log, 'never')
  try {
    await appender.append(header(original, lastMessageId))
    for (const line of lines) await appender.appendLine(line)
  } finally {
    await appender.close()
  }
  await copyAgents(source, target, agents)
  await linkArtifacts(source.artifactsDir, target.artifactsDir)
  return { found, ...(title !== undefined ? { title } : {}) }
}

async function copyAgents(source: SessionPaths, target: SessionPaths, agents: Set<string>): Promise<void> {
  if (agents.size === 0) return
  await makeDirectories(target.agentsDir, PRIVATE_DIR_MODE)
  for (const agentId of agents) {
    try {
      await copyFile(agentLogPath(source, agentId), agentLogPath(target, agentId))
    } catch {
      // An agent whose transcript was never written has nothing to copy.
    }
  }
}

// Artifacts are content-addressed and never rewritten, so both sessions may share the bytes.
async function linkArtifacts(from: string, to: string): Promise<void> {
  let names: string[]
  try {
    names = await readdir(from)
  } catch {
    return
  }
  await makeDirectories(to, PRIVATE_DIR_MODE)
  for (const name of names) {
    if (name.startsWith('.')) continue
    try {
      await link(join(from, name), join(to, name))
    } catch {
      await copyFile(join(from, name), join(to, name))
    }
  }
}
