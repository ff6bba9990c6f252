export { TOOL_DESCRIPTIONS, toolDescription } from './tools/index.js'
