import { present, runScenarios, type PresentedCalculation } from './answer.ts'
import { oneMode } from './calculator.errors.ts'
import { factorOf, type CalculatorData, type Factor } from './calculator.data.ts'
import { derive, item, type BreakdownItem, type Calculation, type Scenario } from './calculation.ts'
import type { ClothesInputs, ClothesQuery } from './calculator.schemas.ts'
import { defaultsFor, measurementSystemFor, resolveCountry, systemDefault } from './countries.ts'

/**
 * Clothes, by one of three methods:
 * - amount: the EEA EU-27 footprint of clothing and footwear (the 270 kg of 2020 less the
 *   household textiles in it, shared by the EEA's masses), the one cited average, stated as an
 *   EU figure for every country, times a profile multiplier;
 * - spend_usd: US EPA USEEIO apparel factor per dollar;
 * - new_items / secondhand_items: a Levi's 501 jeans (cradle to retail) per new garment.
 * All three are supply-chain figures with no combustion-only part and no cited interval. The
 * other two modes say what the EU average is in their own terms, so the modes can be compared.
 */

/** The EEA EU-27 2020 footprint of clothing and footwear per person: the textiles figure less household textiles. */
function euClothesAverage (data: CalculatorData): Factor {
  const textiles = factorOf(data, 'clothing:eea.textiles_per_capita_2020')
  const mass = factorOf(data, 'clothing:eea.textiles_mass_per_capita_2020')
  const clothing = factorOf(data, 'clothing:eea.clothing_mass_per_capita_2020')
  const footwear = factorOf(data, 'clothing:eea.footwear_mass_per_capita_2020')
  // Spend (US apparel) and items (garments) count clothes only; bed linen and towels are not clothes.
  return derive([textiles, mass, clothing, footwear], {
    key: 'derived:clothes.eu_average',
    id: 'tonne:clothes.eu_clothing_and_footwear_2020',
    value: textiles.value * (clothing.value + footwear.value) / mass.value,
    unit: 'kg CO2e per person per year',
    description: 'EU-27 clothing and footwear bought per person, 2020, production and supply chain up to purchase',
    derivation: `${textiles.value} kg (${textiles.id}) x (${clothing.value} kg clothing + ${footwear.value} kg ` +
      `footwear) / ${mass.value} kg of textiles (EEA 2020 masses; the same CO2e per kg assumed for each group)`
  })
}

const round1 = (value: number): string => value.toFixed(1)

export function clothesAnswer (data: CalculatorData, query: ClothesQuery): PresentedCalculation<ClothesInputs> {
  const country = resolveCountry(data, query.country_code)
  const system = measurementSystemFor(country, query.measurement_system)
  const modes: Array<{ mode: ClothesInputs['mode'], parameter: string }> = []
  if (query.amount !== undefined) modes.push({ mode: 'amount', parameter: 'amount' })
  if (query.spend_usd !== undefined) modes.push({ mode: 'spend', parameter: 'spend_usd' })
  if (query.new_items !== undefined ||
    query.secondhand_items !== undefined) {
    modes.push({
      mode: 'items',
      parameter: query.new_items !== undefined ? 'new_items' : 'secondhand_items'
    })
  }
  const mode = oneMode(modes, 'clothes shopping', {
    parameter: 'amount', ways: 'amount (none, little, average, much), spend_usd, or new_items and secondhand_items'
  })
  const boundary = query.boundary ?? 'life_cycle'
  const assumptions: string[] = [
    'Clothes factors cover production and the supply chain up to purchase, with no combustion-only part: both ' +
      'boundaries give the same figure.']
  const used: Factor[] = []
  let breakdown: BreakdownItem[]
  const inputs: ClothesInputs = { mode: mode.mode, factor_region: 'EU-27' }

  if (mode.mode === 'amount') {
    const amount = query.amount ?? 'average'
    inputs.amount = amount
    const baseline = euClothesAverage(data)
    const multiplier = factorOf(data, `param:clothes.multiplier.${amount}`)
    used.push(multiplier)
    assumptions.push(
      `The average is the EU-27's (EEA, 2020: ${round1(baseline.value)} kg CO2e per person a year for clothing and ` +
        `footwear), the one cited per-person figure; it is used for ${country.name} as an EU figure, not a ` +
        'national one.',
      'Household textiles (bed linen, towels: 6.0 of the 14.8 kg of textiles the EEA counts per person) are not ' +
        'counted: they are not clothes, and the spend and item modes do not count them either. The EEA\'s 270 kg is ' +
        'shared by mass.')
    breakdown = [item(baseline, 'clothes', `${amount} clothes shopping (EU-27 average x ${multiplier.value})`,
      multiplier.value, 'x EU-27 average purchases', `multiplier ${multiplier.value} (${multiplier.id})`)]
  } else if (mode.mode === 'spend') {
    const spend = query.spend_usd ?? 0
    inputs.spend_usd = spend
    inputs.factor_region = 'US'
    const factor = factorOf(data, 'clothing:useeio_v1_2.apparel_315000')
    const average = euClothesAverage(data)
    assumptions.push(
      'Spending is read as 2021 US dollars at purchaser price; the US EPA factor describes US supply chains and ' +
        'understates imported clothing made with coal-heavy electricity.',
      `The EU-27 average (EEA 2020, clothing and footwear: ${round1(average.value)} kg CO2e a person) equals ` +
        `${Math.round(average.value / factor.value)} USD a year in this mode; amount=average gives that average.`)
    breakdown = [item(factor, 'clothes', 'clothes bought (by spend)', spend, 'USD (2021)')]
  } else {
    const newItems = query.new_items ?? 0
    const secondhand = query.secondhand_items ?? 0
    inputs.new_items = newItems
    inputs.secondhand_items = secondhand
    inputs.factor_region = 'global'
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
    const average = euClothesAverage(data)
    assumptions.push(
      'Every new garment is counted as a pair of jeans (Levi\'s 501 LCA, 20 kg cradle to retail), the heavy end of ' +
        'the 1 to 20 kg range per garment: an order-of-magnitude estimate.',
      `The EU-27 average (EEA 2020, clothing and footwear: ${round1(average.value)} kg CO2e a person) equals ` +
        `${round1(average.value / perItem.value)} new garments a year in this mode; amount=average gives that average.`)
    breakdown = [
      item(newItem, 'new_clothes', 'new garments', newItems, 'garments'),
      item(usedItem, 'secondhand_clothes', 'second-hand garments', secondhand, 'garments')
    ]
  }
  const defaults = [...systemDefault(country, query), ...defaultsFor(query, ['boundary'])]
  // No interval is cited for any clothing factor; the two global estimates of the same industry differ by their
  // ratio, which Tonne takes as the spread: value / sqrt(ratio) to value x sqrt(ratio), a band centred on the value.
  const quantis = factorOf(data, 'param:clothes.global_estimate.quantis_mt')
  const gfa = factorOf(data, 'param:clothes.global_estimate.gfa_mt')
  const spread = Math.sqrt(quantis.value / gfa.value)
  used.push(quantis, gfa)
  assumptions.push('Range: no interval is cited for clothing factors; the two global estimates of the industry ' +
    `(Quantis 2018: ${quantis.value} Mt, Global Fashion Agenda and McKinsey 2020: ${gfa.value} Mt CO2e a year) ` +
    `differ ${round1(quantis.value / gfa.value)}-fold, taken as the spread: value / ${round1(spread)} to value x ` +
    `${round1(spread)}.`)
  const band = `Clothes: the ${round1(quantis.value / gfa.value)}-fold spread between Quantis (2018) and Global ` +
    'Fashion Agenda / McKinsey (2020) global estimates, as a band centred on the value (Tonne assumption)'
  const run = (scenario: Scenario): Calculation<ClothesInputs> => ({
    countryCode: country.code,
    measurementSystem: system,
    inputs,
    breakdown: scenario.bound === 'central'
      ? breakdown
      : breakdown.map((entry) => {
        const scale = scenario.bound === 'low' ? 1 / spread : spread
        const factor = derive([entry.factor, quantis, gfa], {
          key: `${entry.factor.key}:band.${scenario.bound}`,
          id: entry.factor.id,
          value: entry.factor.value * scale,
          unit: entry.factor.unit,
          description: `${entry.factor.description}, ${scenario.bound} end of the global estimates' spread`,
          derivation: `${entry.factor.value} ${scenario.bound === 'low' ? '/' : 'x'} sqrt(${quantis.value} / ${
            gfa.value})`
        })
        return item(factor, entry.category, entry.label, entry.quantity, entry.quantityUnit, entry.note, [band])
      }),
    assumptions,
    used,
    defaults
  })
  const runs = runScenarios({ boundary, radiativeForcing: false, method: 'location_based', bound: 'central' },
    { radiativeForcing: false, method: false }, run)
  return present(data, runs, { category: 'clothes', warn: true })
}
