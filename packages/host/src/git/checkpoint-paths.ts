import { createHash } from 'node:crypto'
import { join, resolve } from 'node:path'

/**
 * Where a project's shadow repository lives: `<dataDir>/checkpoints/<hash of the project root>.git`,
 * outside the project, so checkpoints never touch the project's files or its `.git`.
 */
export function checkpointRepoDir(dataDir: string, projectRoot: string): string {
  const digest = createHash('sha256').update(resolve(projectRoot)).digest('hex').slice(0, 24)
  return join(dataDir, 'checkpoints', `${digest}.git`)
}
