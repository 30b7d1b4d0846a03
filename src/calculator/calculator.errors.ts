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
