import { expectHeader, recordOf } from '../reference/csv.ts'
import { derive } from './calculation.ts'
import { number, text, WORLD, type Factor, type Read } from './data-files.ts'

/**
 * A country's average diet from its food supply: FAO Food Balance Sheets kcal per person per day by food
 * group and meat supply by type (both via Our World in Data), with Poore and Nemecek (2018) kg CO2e per
 * 1,000 kcal per product (via Our World in Data). A group's factor is the median of its products; meat
 * follows the country's mix of meats by weight. See docs/methodology.md, "Diet".
 */

const FOOD_GROUPS = ['cereals_grains', 'pulses', 'starchy_roots', 'sugar', 'oils_fats', 'meat', 'dairy_eggs',
  'fruits_vegetables', 'alcoholic_beverages', 'other'] as const
export type FoodGroup = typeof FOOD_GROUPS[number]
const MEAT_TYPES = ['poultry', 'beef', 'sheep_goat', 'pig', 'other_meat'] as const
type MeatType = typeof MEAT_TYPES[number]

const SUPPLY_SOURCE = 'fao-fbs-owid'
const FACTOR_SOURCE = 'poore-nemecek-2018-owid'

interface CountryRow<Key extends string> { name: string, year: number, values: Record<Key, number>, figure: Factor }

/** A group's factor: central (median of its products), and the lowest and highest product. */
interface GroupFactor { central: Factor, low: Factor, high: Factor }

export interface FoodData {
  supply: ReadonlyMap<string, CountryRow<FoodGroup>>
  meat: ReadonlyMap<string, CountryRow<MeatType>>
  /** Groups other than meat, and each meat type (key `meat:<type>`). */
  factors: ReadonlyMap<string, GroupFactor>
  products: readonly Factor[]
}

function loadRows<Key extends string> ({ table, label }: Read, keys: readonly Key[], suffix: string,
  what: string, unit: string): Map<string, CountryRow<Key>> {
  expectHeader(table, ['iso_code', 'country', 'year', ...keys.map((key) => `${key}${suffix}`)], label)
  const rows = new Map<string, CountryRow<Key>>()
  table.rows.forEach((row, index) => {
    const record = recordOf(index)
    const code = text(row.iso_code, label, record, 'iso_code')
    if (code !== WORLD && !/^[A-Z]{3}$/.test(code)) throw new Error(`${label}: record ${record}: bad iso_code`)
    if (rows.has(code)) throw new Error(`${label}: record ${record}: duplicate iso_code "${code}"`)
    const name = text(row.country, label, record, 'country')
    const year = number(row.year, label, record, 'year', { min: 1990, max: 2100 })
    const values = Object.fromEntries(keys.map((key) =>
      [key, number(row[`${key}${suffix}`], label, record, `${key}${suffix}`, { min: 0, max: 5000 })])) as
      Record<Key, number>
    const total = Object.values<number>(values).reduce((sum, value) => sum + value, 0)
    if (total <= 0) throw new Error(`${label}: record ${record}: the ${what} adds up to nothing`)
    rows.set(code, {
      name,
      year,
      values,
      figure: {
        key: `${SUPPLY_SOURCE}:${what.replaceAll(' ', '_')}:${code}`,
        id: `${SUPPLY_SOURCE}:${code}:${year}`,
        value: total,
        unit,
        source: SUPPLY_SOURCE,
        status: 'published',
        description: `${what[0]?.toUpperCase() ?? ''}${what.slice(1)} (sum of its groups), ${name}, ${year}`,
        year,
        country: code,
        figure: what.replaceAll(' ', '_')
      }
    })
  })
  if (!rows.has(WORLD)) throw new Error(`${label}: the World row (${WORLD}) is missing`)
  return rows
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1
    ? sorted[middle] as number
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2
}

function groupFactor (key: string, what: string, products: Factor[]): GroupFactor {
  const sorted = [...products].sort((a, b) => a.value - b.value)
  const low = sorted[0]
  const high = sorted.at(-1)
  if (low === undefined || high === undefined) throw new Error(`food factors: no product for ${key}`)
  const central = products.length === 1
    ? low
    : derive(sorted, {
      key: `derived:food:${key}`,
      id: `${FACTOR_SOURCE}:median:${key}`,
      value: median(sorted.map((product) => product.value)),
      unit: low.unit,
      description: `${what}: median of Poore and Nemecek's products (${sorted.map((p) => p.description).join(', ')})`,
      derivation: `median of ${sorted.map((product) => `${product.value} (${product.description})`).join(', ')}`
    })
  return { central, low, high }
}

export function loadFood (supplyRead: Read, meatRead: Read, factorRead: Read): FoodData {
  const supply = loadRows(supplyRead, FOOD_GROUPS, '_kcal', 'food supply', 'kcal per person per day')
  const meat = loadRows(meatRead, MEAT_TYPES, '_kg', 'meat supply by type', 'kg per person per year')
  const { table, label } = factorRead
  expectHeader(table, ['product', 'year', 'kg_co2e_per_1000kcal', 'group'], label)
  const byGroup = new Map<string, Factor[]>()
  const products: Factor[] = table.rows.map((row, index) => {
    const record = recordOf(index)
    const product = text(row.product, label, record, 'product')
    const year = number(row.year, label, record, 'year', { min: 1990, max: 2100 })
    const factor: Factor = {
      key: `food:${product}`,
      id: `${FACTOR_SOURCE}:${product}`,
      value: number(row.kg_co2e_per_1000kcal, label, record, 'kg_co2e_per_1000kcal', { min: 0, max: 1000 }),
      unit: 'kg CO2e per 1,000 kcal',
      source: FACTOR_SOURCE,
      status: 'published',
      description: product,
      year
    }
    const group = row.group ?? ''
    if (group !== '') byGroup.set(group, [...(byGroup.get(group) ?? []), factor])
    return factor
  })
  const factors = new Map<string, GroupFactor>()
  const of = (group: string): Factor[] => {
    const found = byGroup.get(group)
    if (found === undefined) throw new Error(`${label}: no product of group "${group}"`)
    return found
  }
  // Groups Poore and Nemecek have no product for (drinks, "other") take the median of all products.
  for (const group of FOOD_GROUPS) {
    if (group === 'meat') continue
    const members = group === 'alcoholic_beverages' || group === 'other' ? products : of(group)
    factors.set(group, groupFactor(group, group.replaceAll('_', ' '), members))
  }
  const meatProducts = MEAT_TYPES.flatMap((type) => byGroup.get(`meat:${type}`) ?? [])
  for (const type of MEAT_TYPES) {
    const members = type === 'other_meat' ? meatProducts : of(`meat:${type}`)
    factors.set(`meat:${type}`, groupFactor(`meat:${type}`, type.replaceAll('_', ' '), members))
  }
  return { supply, meat, factors, products }
}

interface BasketGroup {
  group: FoodGroup
  /** Share of the supply's kcal. */
  share: number
  factor: Record<'central' | 'low' | 'high', Factor>
}

export interface Basket {
  supply: CountryRow<FoodGroup>
  supplyCode: string
  meat: CountryRow<MeatType>
  meatCode: string
  groups: BasketGroup[]
}

/** The country's food supply as shares of kcal per group, each with its factor (world figures stand in). */
export function countryBasket (food: FoodData, code: string): Basket {
  const supplyCode = food.supply.has(code) ? code : WORLD
  const meatCode = food.meat.has(code) ? code : WORLD
  const supply = food.supply.get(supplyCode) as CountryRow<FoodGroup>
  const meat = food.meat.get(meatCode) as CountryRow<MeatType>
  const totalKcal = supply.figure.value
  const meatKg = meat.figure.value
  // Meat's factor follows the country's meats by weight (kcal per kg differ little between meats).
  const meatFactor = (bound: 'central' | 'low' | 'high'): Factor => {
    const parts = MEAT_TYPES.map((type) => ({
      weight: meat.values[type] / meatKg,
      factor: (food.factors.get(`meat:${type}`) as GroupFactor)[bound]
    }))
    return derive([meat.figure, ...parts.map((part) => part.factor)], {
      key: `derived:food:meat:${meatCode}:${bound}`,
      id: `${FACTOR_SOURCE}:meat-mix:${meatCode}`,
      value: parts.reduce((sum, part) => sum + part.weight * part.factor.value, 0),
      unit: 'kg CO2e per 1,000 kcal',
      description: `meat, ${meat.name}'s mix of meats by weight (${meat.year})`,
      derivation: parts.map((part) => `${part.weight.toFixed(4)} x ${part.factor.value}`).join(' + ')
    })
  }
  const groups = FOOD_GROUPS.map((group): BasketGroup => {
    const factor = group === 'meat'
      ? { central: meatFactor('central'), low: meatFactor('low'), high: meatFactor('high') }
      : food.factors.get(group) as GroupFactor
    return { group, share: supply.values[group] / totalKcal, factor }
  })
  return { supply, supplyCode, meat, meatCode, groups }
}

/** The kcal a person of the country eats a day by default: the food supplied less the consumer waste share. */
export function defaultIntakeKcal (food: FoodData, code: string, wasteShare: number): number {
  return Math.round(countryBasket(food, code).supply.figure.value * (1 - wasteShare))
}
