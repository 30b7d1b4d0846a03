import { execFile } from 'node:child_process'
import { accessSync, constants } from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'

/**
 * Node.js 20, the oldest the client supports and the one `npm ci` may run on: TONNE_TEST_NODE20, else the
 * machine's own `node` on the PATH (the pinned Node 24 in node_modules/.bin comes first there, so every folder
 * is tried).
 */
export async function node20 (): Promise<string> {
  const given = process.env['TONNE_TEST_NODE20']
  const candidates = given !== undefined && given !== ''
    ? [given]
    : (process.env['PATH'] ?? '').split(path.delimiter).filter((dir) => dir !== '').map((dir) => path.join(dir, 'node'))
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK)
    } catch {
      continue
    }
    const { stdout } = await promisify(execFile)(candidate, ['--version'])
    if (stdout.startsWith('v20.')) return candidate
  }
  const where = given === undefined ? 'no `node` of version 20 on the PATH' : `TONNE_TEST_NODE20=${given} is not it`
  throw new Error(`These tests need Node.js 20, the oldest the client supports; found none (${where}).`)
}
