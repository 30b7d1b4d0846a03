// Names for values the service sends as identifiers: option labels, country names as people say them, and the
// numbers inside the service's explanations, written the way the rest of the page writes numbers.
import { formatNumber, humanize } from './dom.js'

/** Words that are abbreviations or hyphenated in English, not just capitalised ("lpg" → "LPG"). */
const SPECIAL = /** @type {Record<string, string>} */ ({
  lpg: 'LPG',
  cng: 'CNG',
  plug_in_hybrid: 'Plug-in hybrid',
  low_meat: 'Low meat',
  medium_meat: 'Medium meat',
  high_meat: 'High meat'
})

/** Values the service accepts under two spellings: a form offers the first only. */
const SAME_AS = /** @type {Record<string, string>} */ ({ pescetarian: 'pescatarian' })

/**
 * "plug_in_hybrid" → "Plug-in hybrid", "lpg" → "LPG", "natural_gas" → "Natural gas".
 * @param {string} value
 */
export function optionLabel (value) {
  return SPECIAL[value] ?? humanize(value).replace(/\b(lpg|cng)\b/gi, (word) => word.toUpperCase())
}

/**
 * A select's choices from a list of values: each once (spelling variants left out), with readable labels.
 * @param {string[]} values
 * @returns {Array<[string, string]>}
 */
export function optionChoices (values) {
  return values.filter((value) => SAME_AS[value] === undefined || !values.includes(SAME_AS[value] ?? ''))
    .map((value) => [value, optionLabel(value)])
}

/**
 * The name people use where the ISO 3166 English name is formal or inverted (the same choices as the catalogue's
 * canonical names, migration 2026_11_23_0005), keyed by alpha-3, with the abbreviations people look for.
 */
const COMMON_NAMES = /** @type {Record<string, string>} */ ({
  BOL: 'Bolivia',
  BRN: 'Brunei',
  COD: 'Democratic Republic of the Congo',
  COG: 'Republic of the Congo',
  CZE: 'Czechia (Czech Republic)',
  FLK: 'Falkland Islands',
  FSM: 'Micronesia',
  GBR: 'United Kingdom (UK)',
  IRN: 'Iran',
  KOR: 'South Korea',
  LAO: 'Laos',
  MDA: 'Moldova',
  NLD: 'Netherlands',
  PRK: 'North Korea',
  PSE: 'Palestine',
  RUS: 'Russia',
  SYR: 'Syria',
  TUR: 'Türkiye (Turkey)',
  TWN: 'Taiwan',
  TZA: 'Tanzania',
  USA: 'United States (USA)',
  VEN: 'Venezuela',
  VGB: 'British Virgin Islands',
  VIR: 'United States Virgin Islands',
  VNM: 'Vietnam'
})

/**
 * The countries as choices, by the names people use, in alphabetical order of those names.
 * @param {Array<{ country_code: string, country_name: string }>} countries
 * @returns {Array<[string, string]>}
 */
export function countryChoices (countries) {
  const collator = new Intl.Collator(undefined, { sensitivity: 'base' })
  return countries
    .map((c) => /** @type {[string, string]} */ ([c.country_code, COMMON_NAMES[c.country_code] ?? c.country_name]))
    .sort((a, b) => collator.compare(a[1], b[1]))
}

/**
 * The service's explanation with its numbers written as the page writes them ("17049 / 2.8 kWh" →
 * "17,049 / 2.8 kWh" in English); years (1900 to 2100 without decimals) and parts of identifiers stay as they are.
 * @param {string} text
 */
export function withFormattedNumbers (text) {
  return text.replace(/(?<![\w.:-])\d+(?:\.\d+)?(?![\w:]|\.\d)/g, (token) => {
    const value = Number(token)
    if (/^\d{4}$/.test(token) && value >= 1900 && value <= 2100) return token
    const decimals = token.split('.')[1]?.length ?? 0
    return formatNumber(value, decimals === 0 ? 0 : Math.min(decimals, 6))
  })
}
