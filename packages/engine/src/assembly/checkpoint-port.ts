import { join, resolve } from 'node:path'
import { checkpointRepoDir, ShadowCheckpoints } from '@z-engine/host'
import type { Checkpoint } from '@z-engine/protocol'
import type { CheckpointPort } from '../session/services.js'
import { afterTurnMark, must, restoreCheckpoint, undoMark } from './checkpoint-restore.js'

/** What the checkpoint port needs. */
export interface CheckpointPortOptions {
  dataDir: string
  projectRoot: string
  env: Readonly<Record<string, string | undefined>>
  newId: (prefix: string) => string
  onNotice: (level: 'warning', message: string) => void
  /** The user's home directory: a session started there (or in `/`) takes no checkpoints. */
  home: string
  /** `checkpoints.max_files`: files one checkpoint may capture before it is skipped. */
  maxFiles: number
  /** `checkpoints.max_mb`: MiB one checkpoint may copy before it is skipped. */
  maxMb: number
  /** Whether a Read deny rule covers an absolute path: such files are never captured or restored. */
  readDenied?: (path: string) => boolean
  /** Whether any deny rule exists now; false spares a snapshot asking `readDenied` of every path. */
  denyRules?: () => boolean
}

/**
 * Shadow-git checkpoints before each user turn (spec 000 "Persistence"). The repository opens on
 * the first turn, not when the session opens, so startup never waits for git. Failures are notices:
 * a turn never fails because its checkpoint could not be taken. They never run away (issue 17): a
 * session in `/` or the home directory takes none, and a checkpoint that would capture more than
 * the budget (`checkpoints.max_files`, `checkpoints.max_mb`) is skipped, copying nothing. Files
 * under Read deny rules (`Read(.env)`) are never copied into the checkpoint store and a rewind
 * leaves them as they are (issue 13).
 */
export function createCheckpointPort(options: CheckpointPortOptions): CheckpointPort {
  let opened: Promise<ShadowCheckpoints | undefined> | undefined
  let overBudgetNoticed = false
  const { readDenied } = options
  const repo = () => {
    const root = resolve(options.projectRoot)
    if (root === '/' || root === resolve(options.home)) {
      opened ??= Promise.resolve().then(() => {
        const where = root === '/' ? 'the filesystem root' : 'your home directory'
        options.onNotice(
          'warning',
          `Checkpoints are off for this session: it was started in ${where}, too large to snapshot. Start it in a project folder to be able to rewind files.`,
        )
        return undefined
      })
      return opened
    }
    opened ??= ShadowCheckpoints.open({
      projectRoot: options.projectRoot,
      gitDir: checkpointRepoDir(options.dataDir, options.projectRoot),
      env: options.env,
      maxFiles: options.maxFiles,
      maxBytes: options.maxMb * 1024 * 1024,
      ...(readDenied !== undefined ? { exclude: (path: string) => readDenied(join(root, path)) } : {}),
      ...(options.denyRules !== undefined ? { excludesAny: options.denyRules } : {}),
    }).then((result) => {
      if (result.ok) return result.value
      options.onNotice('warning', `Checkpoints are off for this session: ${result.error.message}`)
      return undefined
    })
    return opened
  }
  return {
    async create(messageId, turnId) {
      const checkpoints = await repo()
      if (!checkpoints) return undefined
      const snapshot = await checkpoints.snapshot(`before ${messageId}`)
      if (!snapshot.ok) {
        // Over budget is said once a session; it is tried again each turn (the tree may shrink).
        if (snapshot.error.code === 'overBudget' && overBudgetNoticed) return undefined
        overBudgetNoticed ||= snapshot.error.code === 'overBudget'
        options.onNotice('warning', `No checkpoint before this turn: ${snapshot.error.message}`)
        return undefined
      }
      const checkpoint: Checkpoint = {
        id: options.newId('cp'),
        messageId,
        commit: snapshot.value.commit,
        turnId,
      }
      return checkpoint
    },
    async afterTurn(turnId, before, mutated) {
      if (!before) return
      const checkpoints = await repo()
      if (!checkpoints) return
      const marked = mutated
        ? await checkpoints.snapshotAndMark(afterTurnMark(turnId), `after ${turnId}`)
        : await checkpoints.mark(afterTurnMark(turnId), before.commit)
      if (!marked.ok)
        options.onNotice(
          'warning',
          `Could not record how this turn left the files (${marked.error.message}); rewinding to it will treat every later change as the agent's.`,
        )
    },
    async stage() {
      const checkpoints = await repo()
      await checkpoints?.stage()
    },
    async restore(checkpoint, turns = [checkpoint], restoreOptions = {}) {
      const checkpoints = await repo()
      if (!checkpoints)
        throw new Error('checkpoints are unavailable in this session, so files cannot be rewound')
      return restoreCheckpoint(checkpoints, checkpoint, turns, restoreOptions)
    },
    async undo(undoKey) {
      const checkpoints = await repo()
      if (!checkpoints)
        throw new Error('checkpoints are unavailable in this session, so a rewind cannot be undone')
      const before = await checkpoints.marked(undoMark(undoKey, 'before'))
      const after = await checkpoints.marked(undoMark(undoKey, 'after'))
      if (before === undefined || after === undefined) return undefined
      const now = must(await checkpoints.snapshot('before undoing the rewind'))
      const rewound = must(await checkpoints.changedPaths(after, before))
      const editedSince = new Set(must(await checkpoints.changedPaths(after, now.commit)))
      const putBack = rewound.filter((path) => !editedSince.has(path))
      const restored = must(await checkpoints.restore(before, { only: putBack }))
      must(await checkpoints.unmark(undoMark(undoKey, 'before')))
      must(await checkpoints.unmark(undoMark(undoKey, 'after')))
      return {
        restored: restored.changedPaths.sort(),
        skipped: rewound.filter((path) => editedSince.has(path)).sort(),
      }
    },
  }
}
