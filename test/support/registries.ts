import assert from 'node:assert/strict'
import { tonne } from '../cli.helpers.ts'
import { RAW } from './files.ts'
import type { Workspace } from './workspace.ts'

// Helpers of the registry import tests: the sample exports, the CLI's JSON report, projects by external id.

export { RAW }

export interface Report {
  registry: string
  files: Array<{ file: string, export: string, rows: number }>
  already_imported?: Array<{ file: string, as: string }>
  created: number
  updated: number
  unchanged: number
  skipped: Array<{ file: string, line: number, reason: string }>
  warnings: Array<{ file: string, line: number, field: string, reason: string }>
}

export async function importExports (ws: Workspace, registry: string, files: string[]): Promise<Report> {
  const result = await tonne(['import', '--from', registry, ...files, '--json'], ws.env)
  assert.equal(result.code, 0, result.stderr)
  return JSON.parse(result.stdout) as Report
}

export interface Exported {
  external_id: string
  name: string
  date: string | null
  protocol?: string[]
  project_type?: string | null
  category?: string | null
  is_compliance?: boolean | null
  status?: string | null
  listed_date?: string | null
  credits?: { issued: number | null, retired: number | null, cancelled?: number | null }
  transactions?: Array<{
    identity: string,
    type: string,
    date: string | null,
    vintage: number | null,
    quantity: number,
    beneficiary: string | null,
    reason: string | null,
    note?: string,
    source: { file: string, line: number } | null
  }>
  updated_at?: string
}

/** The catalogue as `tonne export` writes it, by external id. */
export async function exported (ws: Workspace): Promise<Map<string, Exported>> {
  const result = await tonne(['export'], ws.env)
  assert.equal(result.code, 0, result.stderr)
  return new Map((JSON.parse(result.stdout) as Exported[]).map((r) => [r.external_id, r]))
}

export interface Detail {
  id: number
  external_id: string
  name: string
  symbol: string
  registry: { name_id: string }
  standard: { name_id: string }
  credit_type: { name_id: string } | null
  url: string | null
  location: string
  latitude: number | null
  longitude: number | null
  date: string | null
  area: number | null
  estimated_annual_reductions: number | null
  project_developer: string
  vintages: number[]
  credits: unknown
  sustainable_development_goals: Array<{ name_id: string }>
  certifications: Array<{ name_id: string, verbose_name: string }>
  source: unknown
  updated_at: string
}

/** The projects with these external ids, as the API shows them. */
export async function projects (ws: Workspace, externalIds: string[]): Promise<Map<string, Detail>> {
  // One app build in all (every search, then every detail they list), not one per project.
  const searches = externalIds.map((id) => `/api/v1/commerce/products/?search=${encodeURIComponent(id)}&limit=1000`)
  const { listed, details } = await ws.read(async (get) => {
    // One at a time, as one key's client should (searches are expensive reads).
    const listed: number[][] = []
    for (const url of searches) {
      listed.push((JSON.parse(await get(url)) as { results: Array<{ id: number }> }).results.map((p) => p.id))
    }
    // Each listed project once, though several searches may list it.
    const details: Detail[] = []
    for (const id of new Set(listed.flat())) {
      details.push(JSON.parse(await get(`/api/v1/commerce/products/${id}/`)) as Detail)
    }
    return { listed, details }
  })
  const byId = new Map(details.map((detail) => [detail.id, detail]))
  const found = new Map<string, Detail>()
  externalIds.forEach((externalId, i) => {
    // Among the projects its own search listed.
    const match = listed[i]!.map((id) => byId.get(id)!).find((d) => d.external_id === externalId)
    assert.ok(match !== undefined, `${externalId} was imported`)
    found.set(externalId, match)
  })
  return found
}
