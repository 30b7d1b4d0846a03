import { present, runScenarios, type PresentedCalculation } from './answer.ts'
import { factorOf, type CalculatorData, type DIET_BANDS, type Factor } from './calculator.data.ts'
import { item, type BreakdownItem, type Calculation, type Scenario } from './calculation.ts'
import type { DietInputs, DietQuery } from './calculator.schemas.ts'
import { defaultsFor, measurementSystemFor, resolveCountry, systemDefault } from './countries.ts'
import { countryBasket, type Basket } from './food.ts'

/**
 * Diet: Scarborough et al. kg CO2e per person per day (standardised to 2,000 kcal) x 365,
 * scaled linearly by calories, for a chosen diet. "everything" is the country's average diet:
 * its FAO food supply (kcal per person a day, by group, at retail) x Poore and Nemecek (2018) kg CO2e
 * per 1,000 kcal of each group (farm to retail, so losses before retail are in the factor and the food a
 * household buys and wastes stays in its footprint); a given calories value rescales the same mix.
 */

const BASKET_INTERVAL = 'Poore and Nemecek 2018 via OWID: the lowest and highest product of each food group ' +
  '(meat: dairy-herd and beef-herd beef), as the spread of the group factor'

type DietBand = typeof DIET_BANDS[number]

const INTERVAL = 'Scarborough et al. 2023, Table 3: 2.5th to 97.5th percentile of the Monte Carlo distribution'

/** The country's average diet from its food supply (diet_form=everything). */
function countryDiet (data: CalculatorData, query: DietQuery, basket: Basket): PresentedCalculation<DietInputs> {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const boundary = query.boundary ?? 'life_cycle'
  const { supply, meat } = basket
  const calories = query.calories ?? Math.round(supply.figure.value)
  const inputs: DietInputs = {
    diet_form: query.diet_form,
    diet_used: 'country_food_supply',
    study: 'poore_nemecek_2018',
    calories
  }
  const meatSupply = country.meatSupply ?? data.world.meatSupply
  const eatenRatio = factorOf(data, 'param:diet.eaten_per_supplied_meat')
  inputs.meat_supply = {
    kg_per_year: meatSupply.value,
    // For information: meat eaten is less than carcass-weight supply (Colombani and Brunner 2024's ratio).
    eaten_g_per_day: Number((meatSupply.value * eatenRatio.value * 1000 / 365).toPrecision(4)),
    year: meatSupply.year ?? 0,
    country_code: country.meatSupply === undefined ? 'OWID_WRL' : country.code
  }
  const r = (value: number, digits = 4): number => Number(value.toPrecision(digits))
  const assumptions = [
    `diet_form=everything: ${country.name}'s average diet. Its food supply (FAO Food Balances via Our World in ` +
      `Data, ${supply.name} ${supply.year}) is ${r(supply.figure.value)} kcal per person a day at retail; its ` +
      `shares by food group are applied to ${calories} kcal a day. ` + (query.calories === undefined
      ? 'The supply is food bought, so what a household wastes stays in its footprint (it was produced); losses ' +
        'before retail are inside Poore and Nemecek\'s factors, so nothing is removed or added twice.'
      : 'The kcal given replace the supply\'s amount; the mix of foods is the country\'s.'),
    'Each group\'s kg CO2e per 1,000 kcal is the median of Poore and Nemecek\'s (2018) products in it (farm to ' +
      'retail, global mean per product); drinks and other foods, for which they list no product, take the median ' +
      `of all their products. Meat follows ${meat.name}'s mix of poultry, beef, sheep and goat, pig and other ` +
      `meat by weight (${meat.year}).`,
    'Diet factors are life-cycle figures (food production to retail) with no combustion-only part: both boundaries ' +
      'give the same figure.'
  ]
  if (query.study !== undefined) {
    assumptions.push(`study=${query.study} applies to the chosen diets (vegan to high_meat); the country's average ` +
      'diet uses Poore and Nemecek\'s factors per food group.')
  }
  if (basket.supplyCode !== country.code) {
    assumptions.unshift(`${country.name} has no FAO food supply figure: the world's average diet stands in.`)
  }
  if (basket.meatCode !== country.code) {
    assumptions.push(`${country.name} has no FAO meat supply by type: the world's mix of meats stands in.`)
  }
  const thousandKcalPerYear = calories * 365 / 1000
  const used: Factor[] = [supply.figure, meat.figure]
  const defaults = [
    ...systemDefault(country, query),
    ...(query.calories === undefined
      ? [{
          parameter: 'calories',
          value: calories,
          basis: `${country.name}'s food supply per person, FAO Food Balances via Our World in Data (${supply.year})`
        }]
      : []),
    ...defaultsFor(query, ['boundary'])
  ]
  const run = (scenario: Scenario): Calculation<DietInputs> => {
    const breakdown: BreakdownItem[] = basket.groups.map(({ group, share, factor }) =>
      item(factor[scenario.bound], 'diet', `${group.replaceAll('_', ' ')} (${r(share * 100, 3)} % of the kcal)`,
        share * thousandKcalPerYear, '1,000 kcal a year',
        `${r(share * 100, 3)} % x ${calories} kcal x 365 days`,
        scenario.bound === 'central' ? [] : [BASKET_INTERVAL]))
    return { countryCode: country.code, measurementSystem: system, inputs, breakdown, assumptions, used, defaults }
  }
  const runs = runScenarios({ boundary, radiativeForcing: false, method: 'location_based', bound: 'central' },
    { radiativeForcing: false, method: false }, run)
  // The country's own average diet is not a mistake to check: with global mean factors it can exceed a
  // country's greenhouse-gas total (low-input farming), which is said as a note, not as a warning.
  const ownInput = query.calories !== undefined
  const answer = present(data, runs, { category: 'diet', warn: ownInput })
  const reference = country.ghgForComparison
  if (!ownInput && answer.co2e.kg > reference.value * 1000) {
    answer.assumptions.push(`With Poore and Nemecek's global mean factors, ${country.name}'s average diet (` +
      `${r(answer.co2e.kg / 1000, 3)} t CO2e) is more than its greenhouse gases per person (${reference.value} t ` +
      'CO2e, territorial): farming there likely emits less per kcal than the global mean.')
  }
  return answer
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

  if (query.diet_form === 'everything') {
    return countryDiet(data, query, countryBasket(data.food, country.code))
  }
  const band: DietBand = query.diet_form === 'pescetarian' ? 'pescatarian' : query.diet_form
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
