import { REGISTRY_KEYS } from '../registries/registry-keys.ts'

// The sources `tonne sync` and SYNC_SOURCES name (kept apart from the sync itself, so the configuration can check
// them without loading it): OffsetsDB's archive, or one of the registries `tonne import --from` reads.

export const SOURCE_KINDS = ['offsetsdb', ...REGISTRY_KEYS] as const
export type SourceKind = typeof SOURCE_KINDS[number]

/** OffsetsDB's daily archive at its stable "latest" address (docs/data-access.md of carbonplan/offsets-db-data). */
export const OFFSETSDB_LATEST_URL =
  'https://carbonplan-offsets-db.s3.us-west-2.amazonaws.com/production/latest/offsets-db.csv.zip'

/** One source to keep current: what it is and where its file is downloaded from. */
export interface SyncSource {
  kind: SourceKind
  url: string
}

const REGISTRY_NAMES: Readonly<Record<Exclude<SourceKind, 'offsetsdb'>, string>> = {
  verra: 'Verra (Verified Carbon Standard registry)',
  'gold-standard': 'Gold Standard Impact Registry',
  acr: 'ACR (American Carbon Registry)',
  car: 'Climate Action Reserve',
  art: 'ART TREES registry',
  cercarbono: 'Cercarbono',
  isometric: 'Isometric registry',
  arb: 'California Air Resources Board (ARB offset credit issuance table)'
}

/**
 * What to show with a source's data. OffsetsDB: its citation and licence as CarbonPlan states them, with its
 * Terms of Data Access (CarbonPlan claims no copyright in the factual records; the registries may claim rights).
 * A registry's own export: the registry's terms of use.
 */
export function attributionOf (kind: SourceKind): string {
  if (kind === 'offsetsdb') {
    return 'CarbonPlan (2024) "OffsetsDB", https://carbonplan.org/research/offsets-db; CC BY 4.0, under its Terms ' +
      'of Data Access (https://github.com/carbonplan/offsets-db-data/blob/main/docs/TERMS-OF-DATA-ACCESS.md): ' +
      'CarbonPlan claims no copyright in the factual records; the registries may claim rights under their own terms.'
  }
  return `Public exports of ${REGISTRY_NAMES[kind]}; the registry's own terms of use apply.`
}

/**
 * Reads SYNC_SOURCES (or `tonne sync` arguments): `kind=url` entries separated by commas or white space; a bare
 * URL is OffsetsDB's archive. Each kind once (a source is named by its kind: its row in `sources`, its rows in
 * the ledger). Returns the sources, or the problems found.
 */
export function parseSyncSources (entries: readonly string[]): { sources: SyncSource[], problems: string[] } {
  const sources: SyncSource[] = []
  const problems: string[] = []
  for (const entry of entries.flatMap((e) => e.split(/[\s,]+/)).filter((e) => e !== '')) {
    const bare = /^https?:\/\//i.test(entry)
    const at = entry.indexOf('=')
    const kind = bare ? 'offsetsdb' : entry.slice(0, at)
    const url = bare ? entry : entry.slice(at + 1)
    if (!bare && at < 0) {
      problems.push(`"${entry}" is neither kind=URL nor a URL`)
    } else if (!(SOURCE_KINDS as readonly string[]).includes(kind)) {
      problems.push(`"${entry}": unknown source kind "${kind}"; known: ${SOURCE_KINDS.join(', ')}`)
    } else if (!isHttpUrl(url)) {
      problems.push(`"${entry}": the URL must be an absolute http(s) URL`)
    } else if (sources.some((s) => s.kind === kind)) {
      problems.push(`"${entry}": ${kind} is given twice; each source kind syncs from one URL`)
    } else {
      sources.push({ kind: kind as SourceKind, url })
    }
  }
  return { sources, problems }
}

function isHttpUrl (text: string): boolean {
  try {
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === ''
  } catch {
    return false
  }
}
