export type { Action, ActionType } from './action.js'
