// Everything an MCP connection needs from the client package at run time, in one module that is
// imported on the first server start (issue 17): the client, its transports and zod schemas (and
// ajv under them) cost hundreds of ms of CPU to load, and sessions without MCP servers never pay it.
export { Client, SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
export { SupervisedStdioTransport } from './stdio-transport.js'
