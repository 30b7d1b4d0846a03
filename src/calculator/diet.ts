import { factorOf, type CalculatorData, type DIET_BANDS, type Factor } from './calculator.data.ts'
import { item, type Calculation } from './calculation.ts'
import type { DietInputs, DietQuery } from './calculator.schemas.ts'
import { measurementSystemFor, resolveCountry } from './countries.ts'

/**
 * Diet: Scarborough et al. kg CO2e per person per day (standardised to 2,000 kcal) x 365,
 * scaled linearly by calories. "everything" is the meat-eater group matching the country's
 * FAO meat supply per person.
 */

type DietBand = typeof DIET_BANDS[number]

export interface DietCalculation extends Calculation<DietInputs> {
  /** 2.5th and 97.5th percentile kg a year (2023 study only). */
  range: { lowKg: number, highKg: number } | undefined
}

export function omnivoreBand (data: CalculatorData, meatKgPerYear: number): DietBand {
  if (meatKgPerYear < factorOf(data, 'param:diet.low_meat_below_kg_per_year').value) return 'low_meat'
  if (meatKgPerYear < factorOf(data, 'param:diet.medium_meat_below_kg_per_year').value) return 'medium_meat'
  return 'high_meat'
}

export function calculateDiet (data: CalculatorData, query: DietQuery): DietCalculation {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const study = query.study ?? 'scarborough_2023'
  const calories = query.calories ?? 2000
  const assumptions: string[] = []
  const used: Factor[] = []
  const inputs: DietInputs = { diet_form: query.diet_form, diet_used: '', study, calories }

  let band: DietBand
  if (query.diet_form === 'everything') {
    const supply = country.meatSupply ?? data.world.meatSupply
    used.push(supply, factorOf(data, 'param:diet.low_meat_below_kg_per_year'), factorOf(data, 'param:diet.medium_meat_below_kg_per_year'))
    band = omnivoreBand(data, supply.value)
    inputs.meat_supply = { kg_per_year: supply.value, year: supply.year ?? 0, country_code: country.meatSupply === undefined ? 'OWID_WRL' : country.code }
    if (country.meatSupply === undefined) assumptions.push(`${country.name} has no FAO meat supply figure; the world average (${supply.value} kg a year) is used.`)
    assumptions.push(`diet_form=everything is the Scarborough ${band} group, from the FAO meat supply of ${supply.value} kg per person a year (${supply.year ?? ''}); bands: under 18.25 kg low, under 36.5 kg medium, else high (50 and 100 g a day). Supply includes waste and bone, so it overstates what people eat and leans towards the higher bands.`)
  } else {
    band = query.diet_form === 'pescetarian' ? 'pescatarian' : query.diet_form
  }
  inputs.diet_used = band

  const factor = factorOf(data, `diet:${study}.${band}`)
  const reference = factorOf(data, 'param:diet.reference_kcal_per_day')
  used.push(reference)
  const days = 365 * calories / reference.value
  if (calories !== reference.value) assumptions.push(`Scaled linearly from ${reference.value} to ${calories} kcal a day.`)
  const breakdown = [item(factor, 'diet', `${band.replace('_', ' ')} diet (${study.replace('_', ' ')})`, days, `person-days at ${reference.value} kcal`, calories === reference.value ? '365 days' : `365 days x ${calories} / ${reference.value} kcal`)]

  const low = data.factors.get(`diet:${study}.${band}.low`)
  const high = data.factors.get(`diet:${study}.${band}.high`)
  const range = low !== undefined && high !== undefined ? { lowKg: days * low.value, highKg: days * high.value } : undefined
  return { countryCode: country.code, measurementSystem: system, inputs, breakdown, assumptions, used, range }
}
