// npm run catalogue:build — rebuilds data/catalogue/projects.ndjson, the catalogue a first start loads, from the
// registries' own exports in data/catalogue/raw/ with the same importers as `tonne import --from` (into a
// throwaway SQLite database), then adds the California forest projects' centroids and areas where a project
// matches by registry id and the registry exports gave none. Each record keeps its source: files and lines.
// A test fails when the committed file differs from what this writes (data/catalogue/SOURCE.md).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { ImportRecord } from '../src/catalogue/catalogue.schemas.ts'
import { exportProjects } from '../src/ingest/projects.import.ts'
import { importRegistryExports } from '../src/ingest/registries/registry-import.ts'
import type { RegistryKey } from '../src/ingest/registries/registry.ts'
import { BUNDLED_CATALOGUE_FILE } from '../src/ingest/bundled-catalogue.ts'
import { openStore } from '../src/store/connect.ts'
import { migrateToLatest } from '../src/store/migrate.ts'

export const RAW_DIR = path.join(import.meta.dirname, '..', 'data', 'catalogue', 'raw')

/** The exports, in the order their projects take ids. */
const EXPORTS: ReadonlyArray<[RegistryKey, string[]]> = [
  ['verra', ['verra/projects.csv', 'verra/transactions.csv']],
  ['gold-standard', ['gold-standard/projects.csv', 'gold-standard/issuances.csv', 'gold-standard/retirements.csv']],
  ['acr', ['projects', 'issuances', 'retirements', 'cancellations'].map((k) => `american-carbon-registry/${k}.csv`)],
  ['car', ['projects', 'issuances', 'retirements', 'cancellations'].map((k) => `climate-action-reserve/${k}.csv`)],
  ['art', ['projects', 'issuances', 'retirements', 'cancellations'].map((k) => `art-trees/${k}.csv`)],
  ['cercarbono', ['cercarbono/projects.csv', 'cercarbono/issuances.csv', 'cercarbono/retirements.csv']],
  ['isometric', ['isometric/projects.csv', 'isometric/issuances.csv', 'isometric/retirements.csv']],
  // CARB's table last: it adds to the ACR, CAR and Verra projects above (and those it alone names).
  ['arb', ['arb/nc-arboc_issuance_sheet3.csv']]
]

const FOREST_FILE = 'forest-offsets-web/projects-crediting.json'
const HECTARES_PER_ACRE = 0.40468564224
const REGISTRY_BY_PREFIX: Readonly<Record<string, string>> = {
  CAR: 'CLIMATE_ACTION_RESERVE', ACR: 'AMERICAN_CARBON_REGISTRY', VCS: 'VERRA'
}

interface ForestProject { id: string, shape_centroid: [number, number], area: number }

/** CarbonPlan's California IFM projects: centroid [longitude, latitude] and area in acres, with the line of each id. */
function forestProjects (): Array<ForestProject & { line: number }> {
  const text = readFileSync(path.join(RAW_DIR, FOREST_FILE), 'utf8')
  const lines = text.split('\n')
  return (JSON.parse(text) as ForestProject[]).map((p) => ({
    ...p, line: lines.findIndex((l) => l.includes(`"id": ${JSON.stringify(p.id)}`)) + 1
  }))
}

/** Adds centroids and areas (acres → hectares, to 0.01 ha) where a project matches and has none of its own. */
function addForestData (records: ImportRecord[]): number {
  let matched = 0
  for (const forest of forestProjects()) {
    const registry = REGISTRY_BY_PREFIX[forest.id.slice(0, 3)]
    const record = records.find((r) => r.registry.name_id === registry && r.external_id === forest.id)
    if (record === undefined) continue
    matched++
    const [longitude, latitude] = forest.shape_centroid
    if (record.latitude === null && record.longitude === null) Object.assign(record, { latitude, longitude })
    record.area ??= Math.round(forest.area * HECTARES_PER_ACRE * 100) / 100
    record.source = [...record.source ?? [], { file: FOREST_FILE, lines: [forest.line] }]
  }
  return matched
}

/** The bundled catalogue as NDJSON, and what went into it. */
export async function buildBundledCatalogue (): Promise<{ text: string, projects: number, forestMatches: number }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tonne-catalogue-'))
  try {
    const store = await openStore({ dataDir, databaseUrl: undefined })
    try {
      await migrateToLatest(store.db)
      for (const [registry, files] of EXPORTS) {
        await importRegistryExports(store.db, registry,
          files.map((file) => ({ path: path.join(RAW_DIR, 'offsets-db-data', file), label: `offsets-db-data/${file}` }))
        )
      }
      const records: ImportRecord[] = []
      for await (const { record } of exportProjects(store.db)) records.push(record)
      const forestMatches = addForestData(records)
      return { text: records.map((r) => JSON.stringify(r)).join('\n') + '\n', projects: records.length, forestMatches }
    } finally {
      await store.close()
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  const { text, projects, forestMatches } = await buildBundledCatalogue()
  writeFileSync(BUNDLED_CATALOGUE_FILE, text)
  console.log(`wrote ${path.relative(process.cwd(), BUNDLED_CATALOGUE_FILE)}: ${projects} projects, ` +
    `${forestMatches} with California forest data`)
}
