import { mass, present, runScenarios, type PresentedCalculation } from './answer.ts'
import type { CalculatorData } from './calculator.data.ts'
import { item, totalKg, type BreakdownItem, type Calculation, type Scenario } from './calculation.ts'
import type { FlightInputs, FlightQuery } from './calculator.schemas.ts'
import {
  chargeText, flightAssumptions, flightDefaults, groupLabel, RF_METHOD, scenarioNotes
} from './flight.explanation.ts'
import { chargeFlight, flightModel, rfInterval } from './flight.model.ts'

/**
 * Flights (docs/methodology.md, "Flights"): the numbers come from flight.model.ts, what the answer says about them
 * from flight.explanation.ts; this file puts the two together.
 */

export { MAX_FLIGHT_KM } from './flight.model.ts'

interface FlightAnswer extends PresentedCalculation<FlightInputs> {
  co2e_with_rf: ReturnType<typeof mass>
  co2e_without_rf: ReturnType<typeof mass>
  radiative_forcing: { included: boolean, method: string }
}

/** The /flight answer: every scenario run, presented. */
export function flightAnswer (data: CalculatorData, query: FlightQuery): FlightAnswer {
  const model = flightModel(data, query)
  const { country, system, cabin, groups, inputs, used } = model
  const defaults = flightDefaults(model, query)
  const assumptions = flightAssumptions(model, query)
  const run = (scenario: Scenario): Calculation<FlightInputs> => {
    const notes: string[] = [...assumptions]
    const breakdown: BreakdownItem[] = groups.map((group) => {
      const charged = chargeFlight(data, group.distanceKm, cabin, scenario)
      const text = chargeText(group, charged)
      notes.push(...text.notes)
      const { factor, intervals } = rfInterval(data, charged.factor, scenario,
        () => chargeFlight(data, group.distanceKm, cabin, { ...scenario, radiativeForcing: false }).factor)
      return item(factor, group.category, groupLabel(group), group.distanceKm * group.flights, 'passenger-km',
        text.detail, intervals)
    })
    notes.push(...scenarioNotes(scenario))
    return {
      countryCode: country.code,
      measurementSystem: system,
      inputs,
      breakdown,
      assumptions: notes,
      used,
      defaults,
      extraSources: model.mode.mode === 'legs' ? ['openflights'] : []
    }
  }
  const runs = runScenarios({
    boundary: model.boundary,
    radiativeForcing: model.radiativeForcing,
    method: 'location_based',
    bound: 'central'
  }, { radiativeForcing: true, method: false }, run)
  return {
    ...present(data, runs, { category: 'flights', warn: true }),
    co2e_with_rf: mass(totalKg(runs.get({ radiativeForcing: true }))),
    co2e_without_rf: mass(totalKg(runs.get({ radiativeForcing: false }))),
    radiative_forcing: { included: model.radiativeForcing, method: RF_METHOD }
  }
}
