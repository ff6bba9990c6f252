export type { CommandEntry, CommandIo, CommandMain } from './command.js'
export { COMMANDS, runCli } from './router.js'
