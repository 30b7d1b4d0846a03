import { readFileSync } from 'node:fs'
import path from 'node:path'

/** The package version, shown in the OpenAPI document and `tonne --version`. */
export const VERSION: string = (JSON.parse(readFileSync(path.join(import.meta.dirname, '..', 'package.json'),
  'utf8')) as { version: string }).version
