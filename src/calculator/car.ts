import { present, runScenarios, type PresentedCalculation } from './answer.ts'
import type { CalculatorData } from './calculator.data.ts'
import { item, type Calculation, type Scenario } from './calculation.ts'
import type { CarInputs, CarQuery } from './calculator.schemas.ts'
import { carCategory, carDefaults, explainCharge } from './car.explanation.ts'
import { carModel, chargeCar } from './car.model.ts'

/**
 * Car, rail and bus (docs/methodology.md): the numbers come from car.model.ts, what the answer says about them from
 * car.explanation.ts; this file puts the two together.
 */

export function carAnswer (data: CalculatorData, query: CarQuery): PresentedCalculation<CarInputs> {
  const model = carModel(data, query)
  const defaults = carDefaults(model, query)
  const run = (scenario: Scenario): Calculation<CarInputs> => {
    const charge = chargeCar(data, model, scenario)
    const text = explainCharge(data, model, charge)
    const category = model.mode === 'car' ? 'car' : model.mode
    const entry = item(charge.factor, category, text.label, charge.quantity, charge.unit, text.detail,
      [...charge.intervals, ...text.intervals])
    return {
      countryCode: model.country.code,
      measurementSystem: model.system,
      inputs: model.inputs,
      breakdown: [entry],
      assumptions: text.assumptions,
      used: [],
      defaults
    }
  }
  const runs = runScenarios({
    boundary: model.boundary,
    radiativeForcing: false,
    method: 'location_based',
    bound: 'central'
  }, { radiativeForcing: false, method: false }, run)
  return present(data, runs, { category: carCategory(model), warn: true })
}
