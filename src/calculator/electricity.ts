import { factorOf, type CalculatorData, type Country, type Factor } from './calculator.data.ts'
import { derive, type Scenario } from './calculation.ts'

/**
 * kg CO2e per kWh of electricity used in a country. Generation intensity (Ember, life-cycle
 * factors per technology) on the combustion boundary; on the life-cycle boundary divided by
 * (1 - T&D losses), because every kWh used needs 1 / (1 - losses) kWh generated (DESNZ 2025
 * methodology, notes to Table 8). No cited per-country direct-only intensity exists, so the
 * two boundaries differ for electricity by the losses alone.
 */

export interface ElectricityFactor {
  factor: Factor
  /** Basis of the cited interval used by a low or high run (the losses' data-year spread). */
  intervals: string[]
}

function lossesFor (country: Country, bound: Scenario['bound']): number {
  const losses = country.tdLosses
  if (bound === 'low') return losses.interval?.low ?? losses.value
  if (bound === 'high') return losses.interval?.high ?? losses.value
  return losses.value
}

function withLosses (base: Factor, generation: number, country: Country, scenario: Scenario,
  what: string, id: string): ElectricityFactor {
  if (scenario.boundary === 'combustion') {
    const factor = derive([base], {
      key: `derived:${id}:generation`,
      id,
      value: generation,
      unit: 'kg CO2e per kWh',
      description: `${what}, generation only (no transmission losses)`,
      derivation: `${base.value} g CO2e/kWh (${base.id}) / 1000`
    })
    return { factor, intervals: [] }
  }
  const losses = country.tdLosses
  const percent = lossesFor(country, scenario.bound)
  return {
    factor: derive([base, losses], {
      key: `derived:${id}:life_cycle:${scenario.bound}`,
      id,
      value: generation / (1 - percent / 100),
      unit: 'kg CO2e per kWh',
      description: `${what}, with ${country.name}'s transmission and distribution losses`,
      derivation: `${base.value} g CO2e/kWh (${base.id}) / 1000 / (1 - ${Number(
        percent.toPrecision(6))} % losses (${losses.id}))`
    }),
    intervals: scenario.bound === 'central' || losses.interval === undefined
      ? []
      : [`Transmission losses: ${losses.interval.basis}`]
  }
}

/** Location-based: the country's grid average. */
export function gridFactor (country: Country, scenario: Scenario): ElectricityFactor {
  const grid = country.gridIntensity
  const what = `${country.name} grid average (${grid.year ?? ''})`
  return withLosses(grid, grid.value / 1000, country, scenario, what, `tonne:grid.${country.code}`)
}

/** Market-based with a renewable tariff: the IPCC life-cycle intensity of onshore wind, never zero. */
export function greenTariffFactor (data: CalculatorData, country: Country, scenario: Scenario): ElectricityFactor {
  const end = scenario.bound === 'central' ? '' : `.${scenario.bound}`
  const wind = factorOf(data, `param:energy.green_tariff.wind_onshore${end}`)
  const what = 'Renewable tariff (onshore wind, IPCC AR5 life-cycle)'
  const result = withLosses(wind, wind.value / 1000, country, scenario, what, `tonne:green_tariff.${country.code}`)
  const range = scenario.bound === 'central'
    ? []
    : ['Renewable tariff: IPCC AR5 Annex III life-cycle range for wind (7-56 g CO2e/kWh)']
  return { ...result, intervals: [...result.intervals, ...range] }
}
