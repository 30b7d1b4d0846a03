import { spawn, type ChildProcess } from 'node:child_process'
import { EventEmitter, once } from 'node:events'
import path from 'node:path'
import { createInterface } from 'node:readline'
import type { TestContext } from 'node:test'
import { REPO_ROOT } from './files.ts'

export interface ServerProcess {
  child: ChildProcess
  url: string
  /** Lines the process wrote to stdout so far (JSON logs and console lines). */
  output: string[]
  /** Resolves with the first stdout line (already written or still to come) that matches `pattern`. */
  line: (pattern: RegExp) => Promise<string>
  /** Sends SIGTERM and resolves with the exit code. */
  stop: () => Promise<number | null>
}

/** Starts `tonne serve` as its own process on a free port and waits until it listens. */
export async function startServerProcess (t: TestContext, env: Record<string, string>,
  args: string[] = []): Promise<ServerProcess> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'tonne.js'), 'serve', ...args], {
    env: { PATH: process.env['PATH'] ?? '', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  t.after(() => { if (child.exitCode === null) child.kill('SIGKILL') })
  const output: string[] = []
  const lines = new EventEmitter()
  const errors: string[] = []
  child.stderr.on('data', (chunk) => errors.push(String(chunk)))
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      output.push(line)
      lines.emit('line', line)
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)
      if (match !== null) resolve(match[1]!)
    })
    child.on('exit', (code) => reject(new Error(`tonne serve exited with ${code}: ${errors.join('')}`)))
  })
  const line = async (pattern: RegExp) => await new Promise<string>((resolve) => {
    const found = output.find((l) => pattern.test(l))
    if (found !== undefined) return resolve(found)
    const look = (l: string) => {
      if (!pattern.test(l)) return
      lines.off('line', look)
      resolve(l)
    }
    lines.on('line', look)
  })
  return {
    child,
    url,
    output,
    line,
    stop: async () => {
      const exit = once(child, 'exit')
      child.kill('SIGTERM')
      return (await exit)[0] as number | null
    }
  }
}

/** The first group `pattern` captures in a line the process has written so far (a first start's key: FIRST_KEY). */
export function written (server: ServerProcess, pattern: RegExp): string | undefined {
  return server.output.map((line) => pattern.exec(line)?.[1]).find((found) => found !== undefined)
}

/** The API key a first start prints, indented on a line of its own, before it listens. */
export const FIRST_KEY = /^\s+(tonne_\S+)$/

/** Waits for two workers' "listening" lines (each worker logs its own) and gives their process ids. */
export async function workersListening (server: ServerProcess): Promise<[number, number]> {
  const pidOf = (line: string) => (JSON.parse(line) as { pid: number }).pid
  const first = pidOf(await server.line(/Server listening at/))
  const second = pidOf(await server.line(new RegExp(`^(?!.*"pid":${first},).*Server listening at`)))
  return [first, second]
}
