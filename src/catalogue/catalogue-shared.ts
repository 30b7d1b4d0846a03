// What the ledger may use of the catalogue, and all of it (docs/architecture.md, "The catalogue and the ledger"):
// the ledger's transactions belong to the catalogue's projects, so the ledger depends on the catalogue, through
// this module only, and the catalogue knows nothing of the ledger (test/layers.test.ts).

/** Its errors: a ledger filter's bad value and an unknown project answer as the catalogue's do. */
export { InvalidParameterError, ProjectNotFoundError } from './catalogue.errors.ts'
/** The registries' vocabulary: the ledger's `registry` filter takes the products filter's values. */
export { vocabularyNameId, vocabularyValues } from './vocabularies.repository.ts'
/** One version names both: an import changes projects and ledger together. */
export { catalogueVersion } from './catalogue-version.repository.ts'
export type { CountMemo } from './projects.service.ts'
/** The project id's bound and the transaction types, as the import and the products' schemas state them. */
export { MAX_PROJECT_ID, TRANSACTION_TYPES } from './catalogue.schemas.ts'
