import { execFile } from 'node:child_process'
import path from 'node:path'
import { promisify } from 'node:util'
import { REPO_ROOT } from './helpers.ts'

const run = promisify(execFile)

export interface CliResult { code: number, stdout: string, stderr: string }

/** Runs the real `tonne` command (bin/tonne.js) with the given settings. */
export async function tonne (args: string[], env: Record<string, string>): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [path.join(REPO_ROOT, 'bin', 'tonne.js'), ...args], {
      env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'silent', ...env },
      cwd: REPO_ROOT
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number, stdout: string, stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}
