import type { TObject } from 'typebox'
import { CalculatorInputError } from './calculator.errors.ts'

/**
 * Checks the raw query string before ajv sees it. ajv coerces too generously for a
 * calculator: "" becomes 0, "0x10" becomes 16, a repeated parameter becomes an array, and
 * removeAdditional drops misspelt parameters silently, any of which gives a confident wrong
 * number. So: unknown parameters, repeats, empty values and non-decimal numbers are a 400.
 */

// Plain decimals only: exponent forms (1e3) are refused, as the methodology says.
const DECIMAL = /^-?(\d+(\.\d*)?|\.\d+)$/
const INTEGER = /^-?\d+$/

type Kind = 'number' | 'integer' | 'boolean' | 'string'

function kindOf (schema: unknown): Kind {
  const type = (schema as { type?: unknown }).type
  return type === 'number' || type === 'integer' || type === 'boolean' ? type : 'string'
}

export function queryGuard (schema: TObject): (query: unknown) => void {
  const kinds = new Map<string,
    Kind>(Object.entries(schema.properties).map(([name, property]) => [name, kindOf(property)]))
  const names = [...kinds.keys()]
  return (query) => {
    for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) {
      const kind = kinds.get(name)
      if (kind === undefined) {
        const accepted = names.length === 0
          ? 'This endpoint takes no parameters.'
          : `This endpoint accepts: ${names.join(', ')}.`
        throw CalculatorInputError.invalid(name, `Unknown parameter "${name}". ${accepted}`,
          names.length === 0 ? undefined : names)
      }
      if (Array.isArray(value)) {
        throw CalculatorInputError.invalid(name,
        `${name} was given ${value.length} times; give it once.`)
      }
      if (typeof value !== 'string') continue
      const trimmed = value.trim()
      if (trimmed === '') {
        throw CalculatorInputError.invalid(name,
        `${name} is empty; give a value or leave the parameter out.`)
      }
      if (kind === 'number' && (!DECIMAL.test(trimmed) || !Number.isFinite(Number(trimmed)))) {
        throw CalculatorInputError.invalid(name,
          `${name} must be a plain decimal number such as 12.5, without an exponent (got "${value}").`)
      }
      if (kind === 'integer' && !INTEGER.test(trimmed)) {
        throw CalculatorInputError.invalid(name, `${name} must be a whole number (got "${value}").`)
      }
      if (kind === 'boolean' && trimmed !== 'true' && trimmed !== 'false') {
        throw CalculatorInputError.invalid(name, `${name} must be true or false (got "${value}").`, ['true', 'false'])
      }
    }
  }
}
