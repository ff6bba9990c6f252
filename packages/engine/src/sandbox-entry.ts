/**
 * @z-engine/engine/sandbox: which sandbox backend the shell would use on this machine (`z-engine doctor`). For the repository's own apps (the CLI, the gateway); unstable: names
 * and shapes may change between minor versions. An embedder uses `@z-engine/engine`.
 */

/** Which sandbox backend the shell would use here. */
export { detectShellSandbox } from './assembly/session-sandbox.js'
