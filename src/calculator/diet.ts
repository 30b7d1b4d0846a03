import { mass, present, runScenarios, type PresentedCalculation } from './answer.ts'
import { factorOf, type CalculatorData, type Country, type Factor } from './calculator.data.ts'
import { item, type BreakdownItem, type Calculation, type Scenario } from './calculation.ts'
import type { DietInputs, DietQuery } from './calculator.schemas.ts'
import { defaultsFor, measurementSystemFor, resolveCountry, systemDefault } from './countries.ts'
import { countryBasket, defaultIntakeKcal, type Basket, type FoodGroup } from './food.ts'
import { DRAWS, SEED, percentileInterval, triangular } from './uncertainty.ts'

/**
 * Diet, one method for the default and every form (issue 35; docs/methodology.md, "Diet"):
 * - the country's food supply mix (FAO Food Balances via OWID: kcal by food group at retail);
 * - intake = supply x (1 - the consumer waste share, UNEP 2021) unless `calories` (intake) is given;
 * - the food counted is what reaches the person, wasted part included: intake / (1 - waste share);
 * - each food group's kg CO2e per 1,000 kcal from Poore and Nemecek (2018);
 * - a form swaps food groups: vegetarian drops meat, vegan meat and dairy and eggs, pescetarian eats fish instead
 *   of meat, and the meat forms set the meat eaten (g a day); the kcal freed or taken are shared by the other
 *   groups in the country's proportions, so the intake stays the same.
 */

type Form = DietQuery['diet_form']
type Bound = Scenario['bound']

const PRODUCT_INTERVAL = 'Poore and Nemecek 2018 via OWID: the lowest and highest product of the food group ' +
  '(meat: dairy-herd and beef-herd beef), as the spread of the group factor'

interface Portion {
  label: string
  /** Share of the intake kcal. */
  share: number
  factor: Record<Bound, Factor>
}

interface FormMix { portions: Portion[], lines: string[], meatG: number | undefined }

const r = (value: number, digits = 4): number => Number(value.toPrecision(digits))

/** The country's mix with some groups removed (their kcal shared by the rest) or resized. */
function reshape (basket: Basket, share: (group: FoodGroup, own: number) => number | undefined): Portion[] {
  // Groups the form fixes keep the given share; the others share what is left in the country's proportions.
  const fixed = basket.groups.map((entry) => share(entry.group, entry.share))
  const fixedTotal = fixed.reduce<number>((sum, value) => sum + (value ?? 0), 0)
  const freeTotal = basket.groups.reduce((sum, entry, index) => sum + (fixed[index] === undefined ? entry.share : 0), 0)
  const scale = freeTotal > 0 ? (1 - fixedTotal) / freeTotal : 0
  return basket.groups.map((entry, index) => ({
    label: entry.group.replaceAll('_', ' '),
    share: fixed[index] ?? entry.share * scale,
    factor: entry.factor
  })).filter((portion) => portion.share > 0)
}

function formMix (data: CalculatorData, country: Country, basket: Basket, form: Form): FormMix {
  const meatGroup = basket.groups.find((entry) => entry.group === 'meat')
  const meatShare = meatGroup?.share ?? 0
  const meatSupply = country.meatSupply ?? data.world.meatSupply
  const eaten = factorOf(data, 'param:diet.eaten_per_supplied_meat')
  const countryMeatG = meatSupply.value * eaten.value * 1000 / 365
  switch (form) {
    case 'everything':
      return { portions: reshape(basket, () => undefined), lines: [], meatG: countryMeatG }
    case 'vegetarian':
      return {
        portions: reshape(basket, (group) => group === 'meat' ? 0 : undefined),
        lines: [`vegetarian: no meat; its ${r(meatShare * 100, 3)} % of the kcal are shared by the other groups in ` +
          `${country.name}'s proportions.`],
        meatG: 0
      }
    case 'vegan': {
      const dairy = basket.groups.find((entry) => entry.group === 'dairy_eggs')?.share ?? 0
      return {
        portions: reshape(basket, (group) => group === 'meat' || group === 'dairy_eggs' ? 0 : undefined),
        lines: [`vegan: no meat, dairy or eggs; their ${r((meatShare + dairy) * 100, 3)} % of the kcal are shared by ` +
          `the plant groups in ${country.name}'s proportions.`],
        meatG: 0
      }
    }
    case 'pescetarian':
    case 'pescatarian': {
      const fish = factorOf(data, 'food:Fish (farmed)')
      // Fish takes the meat's kcal; the other groups keep the country's amounts.
      const rest = reshape(basket, () => undefined).filter((portion) => portion.label !== 'meat')
      return {
        portions: [...rest,
          { label: 'fish (farmed)', share: meatShare, factor: { central: fish, low: fish, high: fish } }],
        lines: [`pescetarian: ${country.name}'s meat kcal (${r(meatShare * 100, 3)} %) are eaten as farmed fish ` +
          `(Poore and Nemecek's one fish product, ${fish.value} kg CO2e per 1,000 kcal).`],
        meatG: 0
      }
    }
    default: {
      const target = form === 'low_meat'
        ? factorOf(data, 'param:diet.low_meat_g_per_day').value
        : form === 'medium_meat'
          ? factorOf(data, 'param:diet.medium_meat_g_per_day').value
          : Math.max(factorOf(data, 'param:diet.high_meat_min_g_per_day').value, countryMeatG)
      // Meat kcal follow grams eaten; without a country meat figure the share cannot scale (kept as it is).
      const share = countryMeatG > 0 ? Math.min(meatShare * target / countryMeatG, 0.9) : meatShare
      return {
        portions: reshape(basket, (group) => group === 'meat' ? share : undefined),
        lines: [`${form.replace('_', ' ')}: ${r(target)} g of meat eaten a day (${country.name}'s average: ${
          r(countryMeatG)} g = ${meatSupply.value} kg supplied x ${eaten.value} eaten / 365), so meat is ${
            r(share * 100, 3)} % of the kcal instead of ${r(meatShare * 100, 3)} %; the other groups change in ` +
          `${country.name}'s proportions.`],
        meatG: target
      }
    }
  }
}

export function dietAnswer (data: CalculatorData, query: DietQuery): PresentedCalculation<DietInputs> {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const boundary = query.boundary ?? 'life_cycle'
  const basket = countryBasket(data.food, country.code)
  const { supply, meat } = basket
  const waste = factorOf(data, 'param:diet.consumer_waste_share')
  const defaultIntake = defaultIntakeKcal(data.food, country.code, waste.value)
  const calories = query.calories ?? defaultIntake
  const form = query.diet_form
  const mix = formMix(data, country, basket, form)
  const inputs: DietInputs = {
    diet_form: form,
    diet_used: form === 'everything' ? 'country_food_supply' : `country_food_supply:${form}`,
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
  const bought = calories / (1 - waste.value)
  const assumptions = [
    `One method for every diet form: ${country.name}'s food supply mix (FAO Food Balances via Our World in Data, ${
      supply.name} ${supply.year}: ${r(supply.figure.value)} kcal per person a day at retail) with Poore and ` +
      'Nemecek\'s (2018) kg CO2e per 1,000 kcal of each food group.',
    (query.calories === undefined
      ? `Intake: ${r(supply.figure.value)} kcal supplied x (1 - ${waste.value}) = ${calories} kcal eaten a day; `
      : `Intake: ${calories} kcal eaten a day (as given); `) +
      `the food counted is what reaches the person, wasted part included: ${calories} / (1 - ${waste.value}) = ${
        r(bought)} kcal a day (UNEP Food Waste Index 2021: households, food service and retail waste ${
          waste.value * 100} % of the food available to consumers; by weight, applied to kcal).`,
    ...mix.lines,
    'Each group\'s kg CO2e per 1,000 kcal is the median of Poore and Nemecek\'s (2018) products in it (farm to ' +
      'retail, global mean per product); drinks and other foods, for which they list no product, take the median ' +
      `of all their products. Meat follows ${meat.name}'s mix of poultry, beef, sheep and goat, pig and other ` +
      `meat by weight (${meat.year}).`,
    'Diet factors are life-cycle figures (food production to retail) with no combustion-only part: both boundaries ' +
      'give the same figure.'
  ]
  if (query.study !== undefined) {
    assumptions.push(`study=${query.study} is accepted for compatibility and no longer changes the result: every ` +
      'form uses the same method (issue 35), so forms and the country default can be compared.')
  }
  if (basket.supplyCode !== country.code) {
    assumptions.unshift(`${country.name} has no FAO food supply figure: the world's average diet stands in.`)
  }
  if (basket.meatCode !== country.code) {
    assumptions.push(`${country.name} has no FAO meat supply by type: the world's mix of meats stands in.`)
  }
  const thousandKcalPerYear = bought * 365 / 1000
  const used: Factor[] = [supply.figure, meat.figure, waste, eatenRatio]
  const defaults = [
    ...systemDefault(country, query),
    ...(query.calories === undefined
      ? [{
          parameter: 'calories',
          value: calories,
          basis: `${country.name}'s food supply per person (FAO Food Balances via Our World in Data, ${supply.year}) ` +
            `x (1 - ${waste.value} wasted, UNEP 2021)`
        }]
      : []),
    ...defaultsFor(query, ['boundary'])
  ]
  const run = (scenario: Scenario): Calculation<DietInputs> => {
    const breakdown: BreakdownItem[] = mix.portions.map(({ label, share, factor }) =>
      item(factor[scenario.bound], 'diet', `${label} (${r(share * 100, 3)} % of the kcal)`,
        share * thousandKcalPerYear, '1,000 kcal a year',
        `${r(share * 100, 3)} % x ${r(bought)} kcal x 365 days`,
        scenario.bound === 'central' ? [] : [PRODUCT_INTERVAL]))
    return { countryCode: country.code, measurementSystem: system, inputs, breakdown, assumptions, used, defaults }
  }
  const runs = runScenarios({ boundary, radiativeForcing: false, method: 'location_based', bound: 'central' },
    { radiativeForcing: false, method: false }, run)
  const ownInput = query.calories !== undefined || form !== 'everything'
  const answer = present(data, runs, { category: 'diet', warn: ownInput })
  // The total's range: the groups' factors vary independently, so the sum of every group's extreme overstates it.
  // The logarithms are taken once, not once per draw (2,000 draws of every group on each request).
  const groups = mix.portions.map(({ share, factor }) => ({
    kcal: share * thousandKcalPerYear,
    low: Math.log(factor.low.value),
    mode: Math.log(factor.central.value),
    high: Math.log(factor.high.value)
  }))
  const interval = percentileInterval((random) => {
    let sum = 0
    for (const { kcal, low, mode, high } of groups) sum += kcal * Math.exp(triangular(random, low, mode, high))
    return sum
  })
  answer.range = {
    low: mass(interval.low),
    high: mass(interval.high),
    basis: [`Monte Carlo (${DRAWS} draws, seed ${SEED}): each food group's kg CO2e per 1,000 kcal drawn ` +
      'independently, its logarithm from a triangular distribution over the logarithms of its lowest, median and ' +
      'highest Poore and Nemecek product (the products\' spread is a factor, not a sum); 2.5th to 97.5th ' +
      'percentile of the total. Each breakdown entry\'s range is its group\'s product span.']
  }
  const reference = country.ghgForComparison
  if (!ownInput && answer.co2e.kg > reference.value * 1000) {
    answer.assumptions.push(`With Poore and Nemecek's global mean factors, ${country.name}'s average diet (` +
      `${r(answer.co2e.kg / 1000, 3)} t CO2e) is more than its greenhouse gases per person (${reference.value} t ` +
      'CO2e, territorial): farming there likely emits less per kcal than the global mean.')
  }
  return answer
}
