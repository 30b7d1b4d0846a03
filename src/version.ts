import { readFileSync } from 'node:fs'
import path from 'node:path'

/** The package version, shown in the OpenAPI document and `tonne --version`. */
export const VERSION: string = (JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'package.json'),
  'utf8')) as { version: string }).version

/**
 * What runs: the esbuild bundle (scripts/build-bundle.ts, which rewrites each module's import.meta.url and dirname
 * to its source's but leaves import.meta.filename the bundle's own) or the TypeScript sources.
 */
export const RUNS_FROM: 'bundle' | 'source' = import.meta.filename.endsWith('.ts') ? 'source' : 'bundle'
