import { readFileSync } from 'node:fs'
import path from 'node:path'
import { REPO_ROOT } from '../helpers.ts'

export const CLIENT_DIR = path.join(REPO_ROOT, 'client')

/** The version in client/package.json: the one the client must announce. */
export function clientPackageVersion (): string {
  return (JSON.parse(readFileSync(path.join(CLIENT_DIR, 'package.json'), 'utf8')) as { version: string }).version
}
