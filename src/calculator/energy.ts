import { mass, present, runScenarios, type Mass, type PresentedCalculation } from './answer.ts'
import type { CalculatorData } from './calculator.data.ts'
import { item, totalKg, type BreakdownItem, type Calculation, type Scenario } from './calculation.ts'
import type { EnergyInputs, EnergyQuery } from './calculator.schemas.ts'
import { explainEnergy, explainEnergyScenario, homeSizeWarnings, marketBasedBasis } from './energy.explanation.ts'
import { energyModel } from './energy.model.ts'
import { UNITS } from './units.ts'

/**
 * Home electricity and heating, per person: household kWh x the electricity or fuel factor, divided by the people
 * in the home (docs/methodology.md, section "Home energy"). The numbers come from energy.model.ts, what the answer
 * says about them from energy.explanation.ts; this file puts the two together.
 */

interface EnergyAnswer extends PresentedCalculation<EnergyInputs> {
  electricity: {
    method: 'location_based' | 'market_based',
    location_based: Mass,
    market_based: Mass,
    market_based_basis: string
  }
}

export function energyAnswer (data: CalculatorData, query: EnergyQuery): EnergyAnswer {
  const model = energyModel(data, query)
  const { country, system, heating, people, homeM2 } = model
  const { defaults, assumptions: baseAssumptions, used } = explainEnergy(data, model, query)
  const inputs: EnergyInputs = {
    household_size: Number(people.toPrecision(6)),
    energy_type: model.green ? 'green' : 'conventional',
    electricity_method: model.method,
    heating_type: heating,
    electricity_kwh: model.electricityKwh,
    electricity_source: query.electricity_kwh === undefined ? 'country_default' : 'measured',
    heating_kwh: model.heatingKwh,
    heating_source: heating === 'none' ? 'none' : query.heating_kwh === undefined ? 'country_default' : 'measured'
  }
  if (query.home_size !== undefined && homeM2 !== undefined) {
    inputs.home_size = { value: query.home_size, unit: UNITS[system].area }
    inputs.home_size_m2 = homeM2
  }
  const run = (scenario: Scenario): Calculation<EnergyInputs> => {
    const text = explainEnergyScenario(model, query, scenario)
    const electricity = model.electricityFor(scenario)
    const breakdown: BreakdownItem[] = [
      item(electricity.factor, 'electricity', text.electricityLabel, model.electricityKwhFor(scenario.bound) / people,
        'kWh', text.electricityDetail, [...electricity.intervals, ...text.electricityIntervals])
    ]
    if (heating !== 'none') {
      const { factor, intervals } = model.heatingFactorFor(scenario)
      breakdown.push(item(factor, 'heating', text.heatingLabel, model.heatingFor(scenario.bound) / people, 'kWh',
        text.heatingDetail, [...intervals, ...text.heatingIntervals]))
    }
    const assumptions = [...baseAssumptions, ...text.assumptions]
    return { countryCode: country.code, measurementSystem: system, inputs, breakdown, assumptions, used, defaults }
  }
  const runs = runScenarios(
    { boundary: model.boundary, radiativeForcing: false, method: model.method, bound: 'central' },
    { radiativeForcing: false, method: true }, run)
  const answer = present(data, runs, { category: 'home energy', warn: true })
  answer.warnings.push(...homeSizeWarnings(query.home_size, homeM2, people, system))
  return {
    ...answer,
    electricity: {
      method: model.method,
      location_based: mass(totalKg(runs.get({ method: 'location_based' }))),
      market_based: mass(totalKg(runs.get({ method: 'market_based' }))),
      market_based_basis: marketBasedBasis(model.green)
    }
  }
}
