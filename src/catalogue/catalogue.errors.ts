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

/** A record that cannot be imported; names its index in the file and the field at fault. */
export class ImportError extends Error {
  readonly index: number | undefined
  readonly field: string | undefined
  /** The message without the record and field it names. */
  readonly reason: string
  constructor (message: string, index?: number, field?: string, line?: number) {
    const lineText = line === undefined ? '' : ` (line ${line})`
    const fieldText = field === undefined ? '' : `, field "${field}"`
    const where = index === undefined ? '' : `record ${index}${lineText}${fieldText}: `
    super(`${where}${message}`)
    this.name = 'ImportError'
    this.index = index
    this.field = field
    this.reason = message
  }
}

/** A registry export that cannot be read at all (not CSV, a broken quote): the import changes nothing. */
export class ExportFileError extends Error {
  constructor (message: string) {
    super(message)
    this.name = 'ExportFileError'
  }
}
