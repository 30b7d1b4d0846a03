// Cercarbono's export writes its nested columns (sector, locations, serials) as Python literals:
// [{'code': 8, 'is_buffer': False, 'name': "Carbono d'Urabá"}]. JSON parsers refuse those (single
// quotes, True/False/None), and no maintained npm package reads them, so this is a small strict reader of
// exactly that subset: lists, tuples, dicts, strings, numbers, True, False and None. It evaluates nothing.

export type PythonValue = string | number | boolean | null | PythonValue[] | { [key: string]: PythonValue }

class PythonLiteralError extends Error {}

const ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '\\': '\\', "'": "'", '"': '"', 0: '\0' }

export function parsePythonLiteral (text: string): PythonValue {
  let i = 0
  const fail = (what: string): never => { throw new PythonLiteralError(`${what} at character ${i + 1}`) }
  const space = () => { while (i < text.length && /\s/.test(text[i]!)) i++ }

  function value (): PythonValue {
    space()
    const c = text[i]
    if (c === '[' || c === '(') return sequence(c === '[' ? ']' : ')')
    if (c === '{') return dict()
    if (c === "'" || c === '"') return string()
    const word = /^(True|False|None)\b/.exec(text.slice(i))
    if (word !== null) {
      i += word[0].length
      return word[0] === 'True' ? true : word[0] === 'False' ? false : null
    }
    const number = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(text.slice(i))
    if (number !== null) {
      i += number[0].length
      return Number(number[0])
    }
    return fail(c === undefined ? 'unexpected end' : `unexpected "${c}"`)
  }

  function sequence (close: string): PythonValue[] {
    i++
    const items: PythonValue[] = []
    for (;;) {
      space()
      if (text[i] === close) { i++; return items }
      items.push(value())
      space()
      if (text[i] === ',') i++
      else if (text[i] !== close) fail(`expected "," or "${close}"`)
    }
  }

  function dict (): { [key: string]: PythonValue } {
    i++
    const entries: { [key: string]: PythonValue } = {}
    for (;;) {
      space()
      if (text[i] === '}') { i++; return entries }
      const key = value()
      if (typeof key !== 'string' && typeof key !== 'number') fail('a dict key must be a string or a number')
      space()
      if (text[i] !== ':') fail('expected ":"')
      i++
      // Defined, not assigned: a key "__proto__" stays an ordinary key.
      Object.defineProperty(entries, String(key), {
        value: value(), enumerable: true, writable: true, configurable: true
      })
      space()
      if (text[i] === ',') i++
      else if (text[i] !== '}') fail('expected "," or "}"')
    }
  }

  function string (): string {
    const quote = text[i]
    i++
    let out = ''
    while (i < text.length && text[i] !== quote) {
      if (text[i] === '\\') {
        const next = text[i + 1]
        if (next === 'u' || next === 'x') {
          const length = next === 'u' ? 4 : 2
          const hex = text.slice(i + 2, i + 2 + length)
          if (!new RegExp(`^[0-9a-fA-F]{${length}}$`).test(hex)) fail('a bad escape')
          out += String.fromCharCode(parseInt(hex, 16))
          i += 2 + length
          continue
        }
        const escaped = next === undefined ? undefined : ESCAPES[next]
        out += escaped ?? `\\${next ?? ''}`
        i += 2
        continue
      }
      out += text[i]
      i++
    }
    if (i >= text.length) fail('an unterminated string')
    i++
    return out
  }

  const result = value()
  space()
  if (i < text.length) fail('unexpected text after the value')
  return result
}
