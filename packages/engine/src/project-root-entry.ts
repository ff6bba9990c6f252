/**
 * @z-engine/engine/project-root: the project walk alone, without the rest of the engine, for code
 * that must start fast (the CLI draws its chat's first frame before the engine loads).
 */

/** The project a folder belongs to (the same function `@z-engine/engine` exports). */
export { findProjectRoot } from './workspace/project-root.js'
/** Whether a session in a project may stop at the workspace-trust prompt (its own settings, not yet trusted). */
export { workspaceTrustPending } from './workspace/settings/trust-pending.js'
