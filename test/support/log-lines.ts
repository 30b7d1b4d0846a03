import { Writable } from 'node:stream'

/** A log stream for an app (its JSON lines kept in `lines`), and a way to wait for the next line saying something. */
export interface LogLines {
  stream: Writable
  lines: string[]
  /** Resolves with the next line written from now on whose message matches `pattern`. */
  next: (pattern: RegExp) => Promise<string>
}

export function logLines (): LogLines {
  const lines: string[] = []
  const waiting = new Set<{ pattern: RegExp, resolve: (line: string) => void }>()
  const stream = new Writable({
    write (chunk, _encoding, done) {
      const line = String(chunk)
      lines.push(line)
      const { msg } = JSON.parse(line) as { msg?: string }
      for (const wait of waiting) {
        if (wait.pattern.test(msg ?? '')) { waiting.delete(wait); wait.resolve(line) }
      }
      done()
    }
  })
  const next = async (pattern: RegExp) =>
    await new Promise<string>((resolve) => waiting.add({ pattern, resolve }))
  return { stream, lines, next }
}
