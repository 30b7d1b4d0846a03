import { ProtocolMappings } from '../../../src/ingest/registries/credit-types.ts'
import {
  Drafts, type ProjectDraft, type RowWarning, type SkippedRow
} from '../../../src/ingest/registries/project-draft.ts'
import type {
  ExportKind, RegistryDefinition, Row, RowContext
} from '../../../src/ingest/registries/registry.ts'
import { countryKey } from '../../../src/catalogue/countries.ts'

// Drives a registry reader's public interface (`exports()`, then an export's `read(row, context)`) with rows given
// as column → value objects, as the import does with a CSV file's rows, and collects what it said: the drafts,
// the skipped rows and the warnings. No file, database or app: the readers are pure.

/** CarbonPlan's mappings, read once per test file (data/catalogue/reference). */
const mappings = new ProtocolMappings()

/** The few canonical country names the sample rows use (the import reads them from the database). */
const COUNTRIES = ['United States', 'Brazil', 'India', 'Colombia', 'Kenya', 'Canada']
const countries = new Map(COUNTRIES.map((name) => [countryKey(name), name]))

export interface ReadResult {
  drafts: Drafts
  skipped: SkippedRow[]
  warnings: RowWarning[]
  /** The draft of this external id; fails when no row named it. */
  draft (externalId: string): ProjectDraft
}

/** One import's reading of `rows` (line 2 onwards, as under a header) through the export of this kind. */
export function readRows (
  registry: RegistryDefinition, kind: ExportKind, rows: ReadonlyArray<Record<string, string>>
): ReadResult {
  return readFiles(registry, [{ kind, rows }])
}

/** Several files of one import, in order, each through the export of its kind (readers may remember rows). */
export function readFiles (
  registry: RegistryDefinition, files: ReadonlyArray<{ kind: ExportKind, rows: ReadonlyArray<Record<string, string>> }>
): ReadResult {
  const exports = registry.exports()
  const drafts = new Drafts()
  const skipped: SkippedRow[] = []
  const warnings: RowWarning[] = []
  files.forEach(({ kind, rows }, index) => {
    const reader = exports.find((e) => e.kind === kind)
    if (reader === undefined) throw new Error(`${registry.key} has no ${kind} export`)
    const file = `${kind}-${index + 1}.csv`
    rows.forEach((values, i) => {
      const at = { file, line: i + 2 }
      const raw = (column: string) => values[column] ?? ''
      const row: Row = { raw, get: (column) => raw(column).trim() }
      const context: RowContext = {
        ...at,
        drafts,
        countries,
        mappings,
        warn: (field, reason) => { warnings.push({ ...at, field, reason }) },
        skip: (reason) => { skipped.push({ ...at, reason }) },
        state: (draft, fields) => { draft.stateFields(fields, at) }
      }
      reader.read(row, context)
    })
  })
  return {
    drafts,
    skipped,
    warnings,
    draft (externalId) {
      const found = drafts.find(externalId)
      if (found === undefined) {
        throw new Error(`no row named ${externalId}; skipped: ${JSON.stringify(skipped)}`)
      }
      return found
    }
  }
}

/** The draft's ledger as [type, date, vintage, quantity] tuples, in the order the rows gave them. */
export function ledger (draft: ProjectDraft): Array<[string, string | null, number | null, number]> {
  return (draft.transactions() ?? []).map((t) => [t.type, t.date, t.vintage, t.quantity])
}

/** The draft's credits per vintage as vintage → [issued, retired]. */
export function perVintage (draft: ProjectDraft): Record<number, [number | null, number | null]> {
  return Object.fromEntries((draft.credits()?.vintages ?? []).map((v) => [v.vintage, [v.issued, v.retired]]))
}

/** Credits retired over every vintage, as the draft's credits give them (0 when none is known). */
export function retiredTotal (draft: ProjectDraft): number {
  return (draft.credits()?.vintages ?? []).reduce((sum, v) => sum + (v.retired ?? 0), 0)
}

/** Sample rows of one export: these columns' values, with the few a test is about given in `values`. */
export function sampleRows (defaults: Readonly<Record<string, string>>):
(values?: Readonly<Record<string, string>>) => Record<string, string> {
  return (values = {}) => ({ ...defaults, ...values })
}
