/**
 * The two kinds of domain error every area throws, and the only ones the HTTP layer maps
 * (src/http/error-handler.ts): input the area cannot use, and a thing that does not exist. They carry
 * no HTTP status; areas subclass them with their own names so that their messages stay theirs.
 */

export type InputErrorKind =
  | 'invalid_parameter'
  | 'missing_parameter'
  | 'conflicting_parameters'
  | 'unknown_country'
  | 'unknown_airport'

/** Input that cannot be used: which parameter is at fault and, for enumerations, the allowed values. */
export class InputError extends Error {
  readonly kind: InputErrorKind
  readonly parameter: string
  readonly allowedValues: readonly string[] | undefined

  constructor (kind: InputErrorKind, parameter: string, detail: string, allowedValues?: readonly string[]) {
    super(detail)
    this.name = 'InputError'
    this.kind = kind
    this.parameter = parameter
    this.allowedValues = allowedValues
  }
}

/** Something asked for by name or id that does not exist. */
export class NotFoundError extends Error {
  constructor (detail: string) {
    super(detail)
    this.name = 'NotFoundError'
  }
}
