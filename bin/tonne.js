#!/usr/bin/env node
// The CLI is TypeScript run by Node's type stripping; npm puts the pinned Node 24 first on PATH.
import module from 'node:module'

// Later starts reuse the stripped and compiled modules (NODE_COMPILE_CACHE, else the OS temp folder): the
// type stripper is then not loaded at all, which saves about 25 MB and part of the start (docs/performance.md).
module.enableCompileCache?.()
await import('../src/cli.ts')
