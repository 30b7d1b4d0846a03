import { isCalendarDay } from '../../domain/calendar.ts'

// Reading the values of registry exports: text, quantities, dates, years, SDG lists, yes/no flags and
// identifiers. Each returns `undefined` for a value it cannot read, so the caller can say where and why.

const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g

/** Trimmed, zero-width characters removed, runs of white space made one space ("treatment  project"). */
export function cleanText (value: string): string {
  return value.replace(ZERO_WIDTH, '').replace(/\s+/g, ' ').trim()
}

/** Long text (descriptions): zero-width characters removed, line breaks kept, outer white space trimmed. */
export function cleanLongText (value: string): string {
  return value.replace(ZERO_WIDTH, '').replace(/\r\n?/g, '\n').trim()
}

/**
 * A quantity: "56,373", "1,454,054", "550369.0", "4853.6" → number; blank → null; anything else → undefined.
 * Commas count only as thousands separators in groups of three.
 */
export function parseQuantity (value: string): number | null | undefined {
  const text = value.trim()
  if (text === '') return null
  if (!/^[+-]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/.test(text)) return undefined
  return Number(text.replace(/,/g, ''))
}

/** Date orders a registry writes slashed dates in: APX (ACR, CAR, ART) month first, Verra day first. */
export type DateOrder = 'month-first' | 'day-first'

const ISO_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ]\d{1,2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i
const SLASHED_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?:\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[AP]M)?)?$/i

/**
 * A two-digit year as older exports write it ("8/2/06"): 00–68 are 2000–2068, 69–99 are 1969–1999, the POSIX
 * rule of strptime's %y (no carbon registry dates a transaction before 1969 or after 2068).
 */
export function fullYear (twoDigits: number): number {
  return twoDigits <= 68 ? 2000 + twoDigits : 1900 + twoDigits
}

/**
 * A calendar date as YYYY-MM-DD: ISO ("2024-04-01", "2026-04-13T12:35:58.842275", "2019-03-07T18:33:46.000Z")
 * or slashed in the registry's order ("1/15/2020", "04/05/2024", "3/24/2026 9:08:01 PM", two-digit years as
 * older exports write them: "8/2/06", `fullYear`); the time is dropped.
 * Blank → null; anything else, or a day that does not exist (2023-02-30) → undefined.
 */
export function parseDate (value: string, order: DateOrder): string | null | undefined {
  const text = value.trim()
  if (text === '') return null
  let year: number, month: number, day: number
  const iso = ISO_DATE.exec(text)
  const slashed = SLASHED_DATE.exec(text)
  if (iso !== null) {
    [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])]
  } else if (slashed !== null) {
    const [first, second] = [Number(slashed[1]), Number(slashed[2])]
    year = slashed[3]!.length === 2 ? fullYear(Number(slashed[3])) : Number(slashed[3])
    ;[month, day] = order === 'month-first' ? [first, second] : [second, first]
  } else {
    return undefined
  }
  if (!isCalendarDay(year, month, day)) return undefined
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

/** A vintage year, "2024" or "2024.0", from 1900 to 2100; anything else → undefined. */
export function parseYear (value: string): number | undefined {
  const match = /^(\d{4})(\.0+)?$/.exec(value.trim())
  const year = match === null ? NaN : Number(match[1])
  return year >= 1900 && year <= 2100 ? year : undefined
}

/**
 * Goal numbers from an SDG column, whichever way the registry writes it: "01: No Poverty; 03: …" (Verra),
 * "03: Good Health…;13: Climate Action" (ACR), "2. Zero Hunger;3. …" (CAR) or "4,13,6" (Gold Standard).
 * Sorted, each once; `invalid` holds the parts that name no goal 1 to 17.
 */
export function parseSdgs (value: string): { numbers: number[], invalid: string[] } {
  const text = value.trim()
  if (text === '') return { numbers: [], invalid: [] }
  const parts = /^\d+(\s*,\s*\d+)*$/.test(text) ? text.split(',') : text.split(';')
  const numbers = new Set<number>()
  const invalid: string[] = []
  for (const part of parts.map((p) => p.trim()).filter((p) => p !== '')) {
    const match = /^0*(\d{1,2})(?:\s*[:.]|$)/.exec(part)
    const number = match === null ? NaN : Number(match[1])
    if (number >= 1 && number <= 17) numbers.add(number)
    else invalid.push(part)
  }
  return { numbers: [...numbers].sort((a, b) => a - b), invalid }
}

/** "Yes" (any case), "Y", "True", "1" → true. */
export function isYes (value: string): boolean {
  return /^(yes|y|true|1)$/i.test(value.trim())
}

/** A label as a name_id: "CORSIA – Pilot Phase, 2021-2023" → CORSIA_PILOT_PHASE_2021_2023; "REDD+" → REDD_PLUS. */
export function upperSnake (label: string): string {
  return label.normalize('NFKD').replace(/\p{M}/gu, '').replace(/\+/g, ' PLUS ').toUpperCase()
    .replace(/[^A-Z0-9]+/g, '_').replace(/^_+|_+$/g, '')
}

export const named = (verboseName: string, nameId = upperSnake(verboseName)) =>
  ({ name_id: nameId, verbose_name: verboseName })

/** "8412.0" → "8412": ids some exports write as floats. */
export function integerId (value: string): string | undefined {
  const match = /^(\d+)(\.0+)?$/.exec(value.trim())
  return match?.[1]
}

/** The first sentence of a description when it is short enough to stand alone (≤ 240 characters), else null. */
export function firstSentence (description: string): string | null {
  const match = /^(.+?[.!?])(\s|$)/s.exec(description.trim())
  const sentence = match === null ? undefined : cleanText(match[1]!)
  return sentence !== undefined && sentence.length <= 240 ? sentence : null
}

/** An http(s) URL as given; a blank, "none" or anything else → null. */
export function webUrl (value: string): string | null {
  const text = value.trim()
  return /^https?:\/\/[^\s]+$/i.test(text) ? text : null
}
