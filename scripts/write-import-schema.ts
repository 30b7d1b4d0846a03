// Writes docs/project-import.schema.json from the TypeBox schema that `tonne import` validates
// with, so the published JSON Schema can never drift from the code (a test compares them).
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { ImportRecordSchema } from '../src/catalogue/catalogue.schemas.ts'

export const IMPORT_SCHEMA_FILE = path.join(import.meta.dirname, '..', 'docs', 'project-import.schema.json')

export function importSchemaText (): string {
  return `${JSON.stringify(ImportRecordSchema, null, 2)}\n`
}

if (import.meta.main) {
  writeFileSync(IMPORT_SCHEMA_FILE, importSchemaText())
  console.log(`wrote ${path.relative(process.cwd(), IMPORT_SCHEMA_FILE)}`)
}
