// The catalogue's own errors: what went wrong in catalogue terms. The HTTP layer (catalogue.routes.ts)
// maps them to status codes and the one problem body; nothing here knows about HTTP.

export class CatalogueError extends Error {}

/** A query parameter whose value the catalogue cannot use; `allowedValues` lists the valid ones when they are few. */
export class InvalidParameterError extends CatalogueError {
  readonly parameter: string
  readonly allowedValues: readonly string[] | undefined
  constructor (parameter: string, detail: string, allowedValues?: readonly string[]) {
    super(detail)
    this.name = 'InvalidParameterError'
    this.parameter = parameter
    this.allowedValues = allowedValues
  }
}

export class ProjectNotFoundError extends CatalogueError {
  readonly id: number
  constructor (id: number) {
    super(`No project with id ${id}.`)
    this.name = 'ProjectNotFoundError'
    this.id = id
  }
}
