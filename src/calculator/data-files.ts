import type { CsvTable } from '../reference/csv.ts'

/** Shared pieces of the calculator's data loaders: the factor type and strict cell readers. */

/** published: read from the publisher's file (or a faithful copy); unverified: transcribed by a
 * third party and not yet checked against the official file; assumption: a Tonne design choice. */
export type FactorStatus = 'published' | 'unverified' | 'assumption'

export interface Factor {
  /** Registry key, e.g. "desnz:car.average.petrol". */
  key: string
  /** Public identifier shown as factor_id, e.g. "desnz-2025:25_301_3070_4_1". */
  id: string
  value: number
  unit: string
  /** Id of the entry in sources.csv. */
  source: string
  status: FactorStatus
  description: string
  year?: number
  /** For a country figure: the country it describes and what it is (e.g. grid_intensity). */
  country?: string
  figure?: string
  /** A cited interval of the value itself (e.g. the 2021-2023 spread of a statistic). */
  interval?: { low: number, high: number, basis: string }
}

export interface WorldStats {
  territorialCo2: Factor
  territorialCo2FootprintYear: Factor
  consumptionCo2: Factor
  ghg: Factor
  meatSupply: Factor
  /** The one year of every figure /footprint shows (consumption, territorial, GHG, world). */
  footprintYear: number
}

export type Read = { table: CsvTable, label: string }

export const WORLD = 'OWID_WRL'

export function number (raw: string | undefined, label: string, record: number, column: string,
  range: { min: number, max: number }): number {
  // Number('') is 0 and Number(' 1 ') is 1: insist on a plain decimal so a blank cell is an error.
  if (raw === undefined || !/^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(raw)) {
    throw new Error(`${label}: record ${record}: column "${column}" is not a number ("${raw ?? ''}")`)
  }
  const value = Number(raw)
  if (!Number.isFinite(value) || value < range.min || value > range.max) {
    throw new Error(
      `${label}: record ${record}: column "${column}" = ${raw} is outside the plausible range ${range.min} to ` +
        `${range.max}`)
  }
  return value
}

export function text (raw: string | undefined, label: string, record: number, column: string): string {
  if (raw === undefined || raw.trim() === '') throw new Error(`${label}: record ${record}: column "${column}" is empty`)
  return raw
}
