/**
 * The calculator's one domain error: input that cannot be calculated. It says what is wrong,
 * which parameter is at fault and, for enumerations, the allowed values. It carries no HTTP
 * status: the HTTP layer (src/http/error-handler.ts) maps every kind to a 400 problem body.
 */

type CalculatorInputErrorKind =
  | 'invalid_parameter'
  | 'missing_parameter'
  | 'conflicting_parameters'
  | 'unknown_country'
  | 'unknown_airport'

export class CalculatorInputError extends Error {
  readonly kind: CalculatorInputErrorKind
  readonly parameter: string
  readonly allowedValues: readonly string[] | undefined

  constructor (kind: CalculatorInputErrorKind, parameter: string, detail: string, allowedValues?: readonly string[]) {
    super(detail)
    this.name = 'CalculatorInputError'
    this.kind = kind
    this.parameter = parameter
    this.allowedValues = allowedValues
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
