import { checkpointRepoDir, ShadowCheckpoints } from '@z-engine/host'
import type { Checkpoint } from '@z-engine/protocol'
import type { CheckpointPort } from '../session/services.js'

/** What the checkpoint port needs. */
export interface CheckpointPortOptions {
  dataDir: string
  projectRoot: string
  env: Readonly<Record<string, string | undefined>>
  newId: (prefix: string) => string
  onNotice: (level: 'warning', message: string) => void
}

/**
 * Shadow-git checkpoints before each user turn (spec 000 "Persistence"). The repository opens on
 * the first turn, not when the session opens, so startup never waits for git. Failures are notices:
 * a turn never fails because its checkpoint could not be taken.
 */
export function createCheckpointPort(options: CheckpointPortOptions): CheckpointPort {
  let opened: Promise<ShadowCheckpoints | undefined> | undefined
  const repo = () => {
    opened ??= ShadowCheckpoints.open({
      projectRoot: options.projectRoot,
      gitDir: checkpointRepoDir(options.dataDir, options.projectRoot),
      env: options.env,
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
    async restore(checkpoint) {
      const checkpoints = await repo()
      if (!checkpoints)
        throw new Error('checkpoints are unavailable in this session, so files cannot be rewound')
      const restored = await checkpoints.restore(checkpoint.commit)
      if (!restored.ok) throw new Error(restored.error.message)
      return restored.value.changedPaths
    },
  }
}
