// The import format's rules for text (docs/api.md, "Import format"): every text field has a maximum length, and
// no field holds a control character except line breaks and tabs where the field is prose. Without them
// PostgreSQL refuses the file with a raw error (NUL; an index row over 2,704 bytes) while SQLite stores it, and a
// terminal that shows a stored name obeys its escape sequences.

import { PROTOCOL_MAX_LENGTH } from '../catalogue/catalogue.schemas.ts'

/** Fields (paths with `[]` for any index) that may hold line breaks and tabs: prose. */
const MULTILINE = new Set(['short_description', 'description', 'co_benefits', 'transactions[].beneficiary',
  'transactions[].reason', 'transactions[].note'])

const LINKS = new Set(['url', 'images[].url'])

/** Maximum length of each text field, in UTF-16 code units (characters outside the BMP count twice). */
const TEXT_LIMITS: ReadonlyMap<string, number> = new Map([
  ['external_id', 200], ['name', 500], ['symbol', 200], ['location', 200], ['project_developer', 500],
  ['short_description', 5000], ['description', 200_000], ['co_benefits', 20_000], ['url', 2000],
  ['images[].title', 500], ['images[].url', 2000], ['protocol[]', PROTOCOL_MAX_LENGTH], ['status', 100],
  ['project_type', 200], ['category', 100], ['protocol_version', 200], ['transactions[].identity', 500],
  ['transactions[].beneficiary', 2000], ['transactions[].reason', 2000], ['transactions[].note', 10_000],
  ['transactions[].account', 2000], ['transactions[].serials', 2000], ['source[].file', 500],
  ['transactions[].source.file', 500]
])
/** Any other text (vocabulary names, SDG names, bundle contents). */
const OTHER_TEXT_LIMIT = 500

const CONTROL = /\p{Cc}/u
// Every control character but tab (U+0009), line feed (U+000A) and carriage return (U+000D).
const CONTROL_BUT_LINES = /(?![\t\n\r])\p{Cc}/u
const LINE_BREAK = /[\r\n]/

interface TextProblem { field: string, message: string }

/** The first text field of a record that breaks the rules, if any. */
export function textProblem (record: unknown): TextProblem | undefined {
  return walk(record, '', '')
}

function walk (value: unknown, field: string, key: string): TextProblem | undefined {
  if (typeof value === 'string') return checkText(value, field, key)
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = walk(value[i], `${field}[${i}]`, `${key}[]`)
      if (found !== undefined) return found
    }
    return undefined
  }
  if (typeof value === 'object' && value !== null) {
    for (const [name, inner] of Object.entries(value)) {
      const found = walk(inner, field === '' ? name : `${field}.${name}`, key === '' ? name : `${key}.${name}`)
      if (found !== undefined) return found
    }
  }
  return undefined
}

function checkText (text: string, field: string, key: string): TextProblem | undefined {
  const limit = TEXT_LIMITS.get(key) ?? OTHER_TEXT_LIMIT
  if (text.length > limit) {
    return { field, message: `is ${text.length} characters long; this field takes at most ${limit}` }
  }
  // Links have their own stricter rule (an absolute http(s) URL without spaces or control characters).
  if (LINKS.has(key)) return undefined
  if (MULTILINE.has(key)) {
    if (CONTROL_BUT_LINES.test(text)) return { field, message: controlMessage(text, CONTROL_BUT_LINES) }
    return undefined
  }
  if (LINE_BREAK.test(text)) return { field, message: 'holds a line break; this field is one line of text' }
  if (CONTROL.test(text)) return { field, message: controlMessage(text, CONTROL) }
  return undefined
}

function controlMessage (text: string, pattern: RegExp): string {
  const found = pattern.exec(text)![0]
  const code = `U+${found.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`
  return `holds the control character ${code} at position ${text.indexOf(found) + 1}; text fields take none ` +
    '(prose fields take line breaks and tabs)'
}
