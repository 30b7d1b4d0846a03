import { execFile, spawn } from 'node:child_process'
import { EventEmitter } from 'node:events'
import path from 'node:path'
import { promisify } from 'node:util'
import { REPO_ROOT } from './support/files.ts'

const run = promisify(execFile)

export interface CliResult { code: number, stdout: string, stderr: string }

/**
 * Runs a `tonne` command in this process: the same `main` that bin/tonne.js runs, with these settings as its
 * whole environment, its output captured and its exit code returned. What only a process shows (the bin file,
 * exit on a signal, --workers) goes through tonneProcess.
 */
export async function tonne (args: string[], env: Record<string, string>): Promise<CliResult> {
  // Imported here, not above: a file that only starts processes (tonneProcess, startTonne) need not load the app.
  const { main } = await import('../src/cli.ts')
  let stdout = ''
  let stderr = ''
  const code = await main(args, {
    stdout: { write: (text: string) => { stdout += text } },
    stderr: { write: (text: string) => { stderr += text } },
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'silent', ...env }
  })
  return { code, stdout, stderr }
}

/** Runs the real `tonne` command (bin/tonne.js) in a process of its own with the given settings. */
export async function tonneProcess (args: string[], env: Record<string, string>): Promise<CliResult> {
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

export interface RunningCli {
  /** Resolves with the first stderr or stdout line matching `pattern`; rejects if the command exits first. */
  line: (pattern: RegExp) => Promise<string>
  exit: Promise<CliResult>
}

/** Starts the real `tonne` command without waiting for it, so a test can watch what it says while it runs. */
export function startTonne (args: string[], env: Record<string, string>): RunningCli {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'tonne.js'), ...args], {
    env: { PATH: process.env['PATH'] ?? '', LOG_LEVEL: 'silent', ...env },
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe']
  })
  const output = new EventEmitter()
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk) => { stdout += String(chunk); output.emit('text') })
  child.stderr.on('data', (chunk) => { stderr += String(chunk); output.emit('text') })
  const exit = new Promise<CliResult>((resolve) => child.on('close', (code) => {
    output.emit('exit')
    resolve({ code: code ?? 1, stdout, stderr })
  }))
  const line = async (pattern: RegExp) => await new Promise<string>((resolve, reject) => {
    const look = () => {
      const found = `${stderr}\n${stdout}`.split('\n').find((l) => pattern.test(l))
      if (found === undefined) return false
      output.off('text', look)
      output.off('exit', exited)
      resolve(found)
      return true
    }
    const exited = () => {
      if (!look()) reject(new Error(`tonne ${args.join(' ')} exited without printing ${pattern}:\n${stderr}`))
    }
    if (look()) return
    output.on('text', look)
    output.on('exit', exited)
  })
  return { line, exit }
}
