import { CalculatorInputError } from './calculator.errors.ts'
import { factorOf, type CalculatorData, type Factor } from './calculator.data.ts'
import { derive, item, type BreakdownItem, type Calculation } from './calculation.ts'
import type { ClothesInputs, ClothesQuery } from './calculator.schemas.ts'
import { measurementSystemFor, resolveCountry } from './countries.ts'

/**
 * Clothes, by one of three methods:
 * - amount: the EEA EU-27 textiles footprint (270 kg a year), scaled to the country by its
 *   consumption CO2 per person relative to the EU, times a profile multiplier;
 * - spend_usd: US EPA USEEIO apparel factor per dollar;
 * - new_items / secondhand_items: a Levi's 501 jeans (cradle to retail) per new garment.
 */

export function calculateClothes (data: CalculatorData, query: ClothesQuery): Calculation<ClothesInputs> {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const modes: Array<{ mode: ClothesInputs['mode'], parameter: string }> = []
  if (query.amount !== undefined) modes.push({ mode: 'amount', parameter: 'amount' })
  if (query.spend_usd !== undefined) modes.push({ mode: 'spend', parameter: 'spend_usd' })
  if (query.new_items !== undefined || query.secondhand_items !== undefined) modes.push({ mode: 'items', parameter: query.new_items !== undefined ? 'new_items' : 'secondhand_items' })
  const mode = modes[0]
  if (mode === undefined) {
    throw CalculatorInputError.missing('amount', 'Describe clothes shopping with one of: amount (none, little, average, much), spend_usd, or new_items and secondhand_items.')
  }
  const second = modes[1]
  if (second !== undefined) {
    throw CalculatorInputError.conflicting(second.parameter, `Give one way of describing clothes shopping, not several: ${modes.map((m) => m.parameter).join(' and ')} were both given.`)
  }
  const base = { countryCode: country.code, measurementSystem: system }
  const assumptions: string[] = []
  const used: Factor[] = []
  let breakdown: BreakdownItem[]
  const inputs: ClothesInputs = { mode: mode.mode }

  if (mode.mode === 'amount') {
    const amount = query.amount ?? 'average'
    inputs.amount = amount
    const baseline = factorOf(data, 'clothing:eea.textiles_per_capita_2020')
    const reference = factorOf(data, 'param:clothes.eu_consumption_co2_per_capita')
    const multiplier = factorOf(data, `param:clothes.multiplier.${amount}`)
    used.push(multiplier)
    const national = country.consumptionCo2 ?? country.territorialCo2
    const basis = country.consumptionCo2 === undefined ? 'territorial' : 'consumption'
    if (basis === 'territorial') assumptions.push(`${country.name} has no consumption-based CO2 figure; its territorial CO2 per person is used to scale the baseline.`)
    const ratio = national.value / reference.value
    inputs.country_scale = { ratio: Math.round(ratio * 10000) / 10000, basis, country_t: national.value, reference_t: reference.value }
    const factor = derive([baseline, national, reference], {
      key: `derived:clothes.${country.code}`,
      id: `tonne:clothes.baseline.${country.code}`,
      value: baseline.value * ratio,
      unit: 'kg CO2e per person per year',
      description: `EU textiles footprint scaled to ${country.name}`,
      derivation: `${baseline.value} kg (${baseline.id}) x ${national.value} t (${national.id}, ${basis} CO2 per person) / ${reference.value} t (${reference.id}, EU)`,
      status: 'assumption'
    })
    assumptions.push('The EU clothing, footwear and household-textiles footprint (EEA, 2020, cradle to purchase) is scaled to the country by how much its residents consume (CO2 per person relative to the EU); a proxy, not a measured clothing footprint.')
    breakdown = [item(factor, 'clothes', `${amount} clothes shopping`, multiplier.value, 'x country-average purchases', `multiplier ${multiplier.value} (${multiplier.id})`)]
  } else if (mode.mode === 'spend') {
    const spend = query.spend_usd ?? 0
    inputs.spend_usd = spend
    const factor = factorOf(data, 'clothing:useeio_v1_2.apparel_315000')
    assumptions.push('Spending is read as 2021 US dollars at purchaser price; the US EPA factor describes US supply chains and understates imported clothing made with coal-heavy electricity.')
    breakdown = [item(factor, 'clothes', 'clothes bought (by spend)', spend, 'USD (2021)')]
  } else {
    const newItems = query.new_items ?? 0
    const secondhand = query.secondhand_items ?? 0
    inputs.new_items = newItems
    inputs.secondhand_items = secondhand
    const perItem = factorOf(data, 'clothing:levis_501.cradle_to_retail')
    const share = factorOf(data, 'param:clothes.secondhand_share_of_new')
    const newItem = derive([perItem], {
      key: 'derived:clothes.new_item',
      id: 'tonne:clothes.new_item',
      value: perItem.value,
      unit: 'kg CO2e per garment',
      description: 'A new garment counted as a pair of Levi\'s 501 jeans, cradle to retail',
      derivation: `${perItem.value} kg per pair of jeans (${perItem.id}), applied to any garment`,
      status: 'assumption'
    })
    const usedItem = derive([perItem, share], {
      key: 'derived:clothes.secondhand_item',
      id: 'tonne:clothes.secondhand_item',
      value: perItem.value * share.value,
      unit: 'kg CO2e per garment',
      description: 'A second-hand garment',
      derivation: `${perItem.value} kg (${perItem.id}) x ${share.value} (${share.id})`,
      status: 'assumption'
    })
    assumptions.push('Every new garment is counted as a pair of jeans (Levi\'s 501 LCA, 20 kg cradle to retail), the heavy end of the 1 to 20 kg range per garment: an order-of-magnitude estimate.')
    breakdown = [
      item(newItem, 'new_clothes', 'new garments', newItems, 'garments'),
      item(usedItem, 'secondhand_clothes', 'second-hand garments', secondhand, 'garments')
    ]
  }
  return { ...base, inputs, breakdown, assumptions, used }
}
