import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import { loadCalculatorData } from '../../src/calculator/calculator.data.ts'
import { CalculatorInputError } from '../../src/calculator/calculator.errors.ts'
import { carAnswer } from '../../src/calculator/car.ts'
import { clothesAnswer } from '../../src/calculator/clothes.ts'
import { resolveCountry } from '../../src/calculator/countries.ts'
import { energyAnswer } from '../../src/calculator/energy.ts'
import { flightAnswer } from '../../src/calculator/flight.ts'

/**
 * The calculator is domain code: it throws its own input error (what is wrong, which parameter,
 * which values are allowed) and knows nothing of HTTP. Only the routes and the route schemas,
 * which are the HTTP contract, may import from src/http.
 */

const SRC = path.join(import.meta.dirname, '..', '..', 'src', 'calculator')
const HTTP_LAYER = new Set(['calculator.routes.ts', 'calculator.schemas.ts'])
const data = loadCalculatorData()

function thrown (fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  assert.fail('expected an error')
}

describe('calculator domain errors', () => {
  test('no calculator module outside the routes and their schemas imports from src/http', () => {
    for (const file of readdirSync(SRC).filter((name) => name.endsWith('.ts') && !HTTP_LAYER.has(name))) {
      const text = readFileSync(path.join(SRC, file), 'utf8')
      assert.doesNotMatch(text, /from '\.\.\/http\//, `${file} imports from src/http`)
      assert.doesNotMatch(text, /\bAppError\b|\bstatus(Code)?\s*[:=]\s*4\d\d/, `${file} uses HTTP errors or statuses`)
    }
  })

  test('invalid, missing and conflicting input, unknown countries and airports are CalculatorInputErrors naming the ' +
    'parameter', () => {
    const cases: Array<{ fn: () => unknown, kind: string, parameter: string, allowed?: string[] }> = [
      { fn: () => resolveCountry(data, 'XYZ'), kind: 'unknown_country', parameter: 'country_code' },
      { fn: () => flightAnswer(data, { country_code: 'DEU' }), kind: 'missing_parameter', parameter: 'frequency' },
      {
        fn: () => flightAnswer(data, { country_code: 'DEU', legs: 'FRA-QQQ' }),
        kind: 'unknown_airport',
        parameter: 'legs'
      },
      {
        fn: () => flightAnswer(data, { country_code: 'DEU', legs: 'FRA' }),
        kind: 'invalid_parameter',
        parameter: 'legs'
      },
      {
        fn: () => carAnswer(data, { country_code: 'DEU', distance: 10, mode: 'rail', fuel_type: 'diesel' }),
        kind: 'conflicting_parameters',
        parameter: 'fuel_type'
      },
      { fn: () => clothesAnswer(data, { country_code: 'DEU' }), kind: 'missing_parameter', parameter: 'amount' },
      {
        fn: () => energyAnswer(data, { country_code: 'DEU', heating_type: 'none', heating_kwh: 10 }),
        kind: 'conflicting_parameters',
        parameter: 'heating_kwh'
      }
    ]
    for (const { fn, kind, parameter } of cases) {
      const error = thrown(fn)
      assert.ok(error instanceof CalculatorInputError, `${String(error)} is a CalculatorInputError`)
      assert.equal(error.kind, kind, error.message)
      assert.equal(error.parameter, parameter, error.message)
      assert.equal('status' in error, false, 'no HTTP status on a domain error')
    }
  })
})
