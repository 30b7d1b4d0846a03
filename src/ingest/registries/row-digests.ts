import { hash } from 'node:crypto'

// The rows of one export file already read, by a digest of their text, to tell a row repeated exactly: a registry's
// full export has millions of rows, so neither the rows nor their digests as strings are kept (a Map of a million
// base64 digests held about 100 MB). 96 bits of each row's SHA-256 sit in an open-addressed table of typed arrays
// (16 bytes a slot); two different rows share them with a probability of about n² / 2⁹⁷ (10⁻¹⁷ for a million rows).

const EMPTY = 0

export class RowDigests {
  #keys = new Uint32Array(3 * 1024)
  /** The line of each slot's row; 0 marks an empty slot (lines count from 1). */
  #lines = new Uint32Array(1024)
  #size = 0

  /** The line of an earlier row with the same text, or undefined (then this row is remembered at `line`). */
  seen (raw: string, line: number): number | undefined {
    // Hex, not a Buffer: a million small Buffers are a million ArrayBuffers for the garbage collector to track.
    const digest = hash('sha256', raw)
    const a = Number.parseInt(digest.slice(0, 8), 16)
    const b = Number.parseInt(digest.slice(8, 16), 16)
    const c = Number.parseInt(digest.slice(16, 24), 16)
    const found = this.#find(a, b, c)
    if (this.#lines[found] !== EMPTY) return this.#lines[found]
    this.#put(found, a, b, c, line)
    if (++this.#size * 2 > this.#lines.length) this.#grow()
    return undefined
  }

  #find (a: number, b: number, c: number): number {
    const mask = this.#lines.length - 1
    for (let slot = a & mask; ; slot = (slot + 1) & mask) {
      if (this.#lines[slot] === EMPTY) return slot
      const k = slot * 3
      if (this.#keys[k] === a && this.#keys[k + 1] === b && this.#keys[k + 2] === c) return slot
    }
  }

  #put (slot: number, a: number, b: number, c: number, line: number): void {
    this.#keys[slot * 3] = a
    this.#keys[slot * 3 + 1] = b
    this.#keys[slot * 3 + 2] = c
    this.#lines[slot] = line
  }

  #grow (): void {
    const keys = this.#keys
    const lines = this.#lines
    this.#keys = new Uint32Array(keys.length * 2)
    this.#lines = new Uint32Array(lines.length * 2)
    for (let slot = 0; slot < lines.length; slot++) {
      if (lines[slot] === EMPTY) continue
      const [a, b, c] = [keys[slot * 3]!, keys[slot * 3 + 1]!, keys[slot * 3 + 2]!]
      this.#put(this.#find(a, b, c), a, b, c, lines[slot]!)
    }
  }
}
