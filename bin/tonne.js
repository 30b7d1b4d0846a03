#!/usr/bin/env node
// The CLI is TypeScript run by Node's type stripping; npm puts the pinned Node 24 first on PATH.
import '../src/cli.ts'
