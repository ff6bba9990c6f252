#!/usr/bin/env node
import { enableCompileCache } from './compile-cache.js'

// Before anything else loads, so the compile cache covers the whole CLI (Node ≥ 22.1).
enableCompileCache()
await import('./main.js')
