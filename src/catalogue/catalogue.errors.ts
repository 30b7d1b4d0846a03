import { InputError, NotFoundError } from '../domain/errors.ts'

// The catalogue's own errors: what went wrong in catalogue terms. The HTTP layer maps the shared
// kinds they extend (src/domain/errors.ts) to status codes and the one problem body.

/** A query parameter whose value the catalogue cannot use; `allowedValues` lists the valid ones when they are few. */
export class InvalidParameterError extends InputError {
  constructor (parameter: string, detail: string, allowedValues?: readonly string[]) {
    super('invalid_parameter', parameter, detail, allowedValues)
    this.name = 'InvalidParameterError'
  }
}

export class ProjectNotFoundError extends NotFoundError {
  readonly id: number
  constructor (id: number) {
    super(`No project with id ${id}.`)
    this.name = 'ProjectNotFoundError'
    this.id = id
  }
}
