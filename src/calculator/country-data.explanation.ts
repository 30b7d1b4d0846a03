import { plural } from './calculation.ts'
import type { Factor } from './data-files.ts'

/**
 * What the per-country figures say about themselves (country-data.ts): why a country's own figure was not used,
 * which area's stands in, and why a country is not supported.
 */

/** The area an estimate comes from, with the countries it averages. */
export function areaText (area: { kind: string, name: string }, used: readonly string[], year: number): string {
  return `${area.kind} ${area.name} (weighted mean of ${plural(used.length, 'country',
    'countries')}: ${used.join(', ')}; data up to ${year})`
}

/** A regional figure standing in for the country's, and why. */
export function fallbackText (what: string, country: string, reason: string, area: string): string {
  return `${what}, ${country}: ${reason}; the ${area} value is used instead`
}

/** Buildings CO2 from the area's share of buildings in territorial CO2. */
export function buildingsShareText (what: string, country: string, territorial: Factor, share: number,
  area: string): string {
  return `${what}, ${country}: no buildings CO2 figure; ${territorial.value} t territorial CO2 per ` +
    'person ' +
    `(${territorial.id}) x ${share}, the share of buildings in territorial CO2 of the ${area}`
}

/** Why a published grid intensity is not used. */
export function gridFallbackReason (grid: Factor, plausibleMaxGrid: number): string {
  return grid.value <= 0
    ? `the published ${grid.value} g CO2e/kWh (${grid.year ?? ''}) is impossible for a life-cycle figure`
    : grid.value > plausibleMaxGrid
      ? `the published ${grid.value} g CO2e/kWh (${grid.year ??
        ''}) is above the life-cycle intensity of any generation technology (${plausibleMaxGrid} g)`
      : `the published figure is from ${grid.year ?? ''}, too old to describe today's grid`
}

/** Why a country cannot be answered for. */
export function unsupportedReasons (noRegion: boolean, noCo2: boolean, noGrid: boolean): string[] {
  return [
    noRegion ? 'no UN M49 region' : undefined,
    noCo2 ? 'no per-capita CO2 figure' : undefined,
    noGrid ? 'no electricity carbon intensity' : undefined
  ].filter((reason) => reason !== undefined)
}
