import { InputError, type InputErrorKind } from '../domain/errors.ts'

/**
 * The calculator's one domain error: input that cannot be calculated. It says what is wrong,
 * which parameter is at fault and, for enumerations, the allowed values. It carries no HTTP
 * status: the HTTP layer maps every InputError (src/domain/errors.ts) to a 400 problem body.
 */
export class CalculatorInputError extends InputError {
  constructor (kind: InputErrorKind, parameter: string, detail: string, allowedValues?: readonly string[]) {
    super(kind, parameter, detail, allowedValues)
    this.name = 'CalculatorInputError'
  }

  static invalid (parameter: string, detail: string, allowedValues?: readonly string[]): CalculatorInputError {
    return new CalculatorInputError('invalid_parameter', parameter, detail, allowedValues)
  }

  static missing (parameter: string, detail: string): CalculatorInputError {
    return new CalculatorInputError('missing_parameter', parameter, detail)
  }

  static conflicting (parameter: string, detail: string): CalculatorInputError {
    return new CalculatorInputError('conflicting_parameters', parameter, detail)
  }
}

/**
 * The one way a request describes `what` (flights, clothes shopping), of the `modes` it gave: none is a missing
 * `parameter` (`ways` lists them), several conflict.
 */
export function oneMode<M extends { parameter: string }> (modes: readonly M[], what: string,
  missing: { parameter: string, ways: string }): M {
  const [mode, second] = modes
  if (mode === undefined) {
    throw CalculatorInputError.missing(missing.parameter, `Describe ${what} with one of: ${missing.ways}.`)
  }
  if (second !== undefined) {
    const given = modes.map((m) => m.parameter).join(' and ')
    throw CalculatorInputError.conflicting(second.parameter,
      `Give one way of describing ${what}, not several: ${given} were both given.`)
  }
  return mode
}
