/**
 * @z-engine/engine/repository: the user's repository: git with every program-running key neutralised, and the repository map. For the repository's own apps (the CLI, the gateway); unstable: names
 * and shapes may change between minor versions. An embedder uses `@z-engine/engine`.
 */

/** git in the user's repository with every program-running key neutralised (the CLI's file index). */
export { projectGit } from '@z-engine/host'
/** Builds a repository map. */
export { buildRepoMap } from './repo-map/repo-map-build.js'
