import { present, runScenarios, type PresentedCalculation } from './answer.ts'
import { factorOf, type CalculatorData, type DIET_BANDS, type Factor } from './calculator.data.ts'
import { item, type Calculation, type Scenario } from './calculation.ts'
import type { DietInputs, DietQuery } from './calculator.schemas.ts'
import { defaultsFor, measurementSystemFor, resolveCountry, systemDefault } from './countries.ts'

/**
 * Diet: Scarborough et al. kg CO2e per person per day (standardised to 2,000 kcal) x 365,
 * scaled linearly by calories. "everything" is an omnivore: the low-meat group where the
 * country's meat eaten is under 50 g a day, otherwise the middle (medium-meat) group. Meat
 * eaten is FAO supply x 0.7623 (Colombani and Brunner 2024); supply statistics can overstate
 * eating by a factor of two or more, too uncertain to put a whole country in the high group.
 */

type DietBand = typeof DIET_BANDS[number]

const INTERVAL = 'Scarborough et al. 2023, Table 3: 2.5th to 97.5th percentile of the Monte Carlo distribution'

interface Omnivore { band: DietBand, supply: Factor, eatenGramsPerDay: number, used: Factor[] }

/** The Scarborough group of a country's omnivore, from its meat supply converted to meat eaten. */
function omnivore (data: CalculatorData, supply: Factor): Omnivore {
  const eaten = factorOf(data, 'param:diet.eaten_per_supplied_meat')
  const lowBelow = factorOf(data, 'param:diet.low_meat_below_g_per_day')
  const eatenGramsPerDay = supply.value * eaten.value * 1000 / 365
  return {
    band: eatenGramsPerDay < lowBelow.value ? 'low_meat' : 'medium_meat',
    supply,
    eatenGramsPerDay,
    used: [supply, eaten, lowBelow]
  }
}

export function dietAnswer (data: CalculatorData, query: DietQuery): PresentedCalculation<DietInputs> {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const study = query.study ?? 'scarborough_2023'
  const calories = query.calories ?? 2000
  const boundary = query.boundary ?? 'life_cycle'
  const assumptions: string[] = []
  const used: Factor[] = []
  const inputs: DietInputs = { diet_form: query.diet_form, diet_used: '', study, calories }

  let band: DietBand
  if (query.diet_form === 'everything') {
    const found = omnivore(data, country.meatSupply ?? data.world.meatSupply)
    band = found.band
    used.push(...found.used)
    const grams = Math.round(found.eatenGramsPerDay)
    inputs.meat_supply = {
      kg_per_year: found.supply.value,
      eaten_g_per_day: Number(found.eatenGramsPerDay.toPrecision(4)),
      year: found.supply.year ?? 0,
      country_code: country.meatSupply === undefined ? 'OWID_WRL' : country.code
    }
    if (country.meatSupply === undefined) {
      assumptions.push(
      `${country.name} has no FAO meat supply figure; the world average (${found.supply.value} kg a year) is used.`)
    }
    assumptions.push(`diet_form=everything: meat eaten is estimated at ${grams} g a day (FAO supply ` +
      `${found.supply.value} kg a year (${found.supply.year ?? ''}) x 0.7623 eaten per supplied, a Swiss ratio, ` +
      'Colombani and Brunner 2024). ' + (band === 'low_meat'
        ? 'Under 50 g a day: the Scarborough low meat-eater group.'
        : 'At least 50 g a day: the middle (medium meat-eater) group. Supply statistics can overstate meat eaten ' +
          'by a factor of two or more (Hallström and Börjesson 2013), too uncertain to place a whole country in ' +
          'the high group (100 g a day or more); choose high_meat if that is you.'))
  } else {
    band = query.diet_form === 'pescetarian' ? 'pescatarian' : query.diet_form
  }
  inputs.diet_used = band
  const reference = factorOf(data, 'param:diet.reference_kcal_per_day')
  used.push(reference)
  const days = 365 * calories / reference.value
  if (calories !== reference.value) {
    assumptions.push(
    `Scaled linearly from ${reference.value} to ${calories} kcal a day.`)
  }
  assumptions.push(
    'Diet factors are life-cycle figures (food production to retail) with no combustion-only part: both boundaries ' +
      'give the same figure.')
  if (study === 'scarborough_2014') {
    assumptions.push(
      'Scarborough et al. 2014 gives means without an interval: the range equals the value.')
  }
  const defaults = [...systemDefault(country, query), ...defaultsFor(query, ['study', 'calories', 'boundary'])]

  const run = (scenario: Scenario): Calculation<DietInputs> => {
    const end = scenario.bound === 'central' ? undefined : data.factors.get(`diet:${study}.${band}.${scenario.bound}`)
    const factor = end ?? factorOf(data, `diet:${study}.${band}`)
    const breakdown = [item(factor, 'diet', `${band.replace('_', ' ')} diet (${study.replace('_', ' ')})`, days,
      `person-days at ${reference.value} kcal`,
      calories === reference.value ? '365 days' : `365 days x ${calories} / ${reference.value} kcal`,
      end === undefined ? [] : [INTERVAL])]
    return { countryCode: country.code, measurementSystem: system, inputs, breakdown, assumptions, used, defaults }
  }
  const runs = runScenarios({ boundary, radiativeForcing: false, method: 'location_based', bound: 'central' },
    { radiativeForcing: false, method: false }, run)
  return present(data, runs, { category: 'diet', warn: true })
}
