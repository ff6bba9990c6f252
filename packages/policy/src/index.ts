export type { Action, ActionType } from './action.js'
export { isAmbiguousPath, isWithin, normalizePath, relativeTo, resolvePath } from './paths/normalize.js'
