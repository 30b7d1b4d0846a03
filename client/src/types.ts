import type { components, paths } from './openapi.ts'

// Names for the generated types (./openapi.ts), so callers never spell out paths[...] themselves.

type Get<P extends keyof paths> = paths[P] extends { get: infer O } ? O : never
type Ok<P extends keyof paths> = Get<P> extends { responses: { 200: { content: { 'application/json': infer B } } } }
  ? B : never
type Query<P extends keyof paths> = Get<P> extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never

type Calc<E extends string> = `/api/v1/co2-calculator/${E}` & keyof paths

export type Problem = components['schemas']['Problem']

export type ProjectPage = Ok<'/api/v1/commerce/products/'>
export type ProjectListItem = ProjectPage['results'][number]
export type Project = Ok<'/api/v1/commerce/products/{id}/'>
type ListQuery = Query<'/api/v1/commerce/products/'>
/** The list's filters; limit and offset have server defaults (50 and 0), so every key is optional. */
export type ProjectFilters = Partial<Omit<ListQuery, 'in_sale'>> & { in_sale?: ListQuery['in_sale'] | boolean }

type FacetsQuery = Query<'/api/v1/commerce/products/facets/'>
/** The filters of the facets: the list's, without paging and ordering. */
export type ProjectFacetFilters = Partial<Omit<FacetsQuery, 'in_sale'>> & { in_sale?: FacetsQuery['in_sale'] | boolean }
export type ProjectFacets = Ok<'/api/v1/commerce/products/facets/'>

type GeoJsonQuery = Query<'/api/v1/commerce/products/geojson/'>
/** The GeoJSON's filters and paging (limit default 1000, at most 10000). */
export type ProjectGeoJsonFilters = Partial<Omit<GeoJsonQuery, 'in_sale'>> &
{ in_sale?: GeoJsonQuery['in_sale'] | boolean }
export type ProjectFeatureCollection = Get<'/api/v1/commerce/products/geojson/'> extends
{ responses: { 200: { content: { 'application/geo+json': infer B } } } } ? B : never

export type TransactionPage = Ok<'/api/v1/commerce/transactions/'>
export type Transaction = TransactionPage['results'][number]
/** The ledger's filters, ordering and paging; limit and offset have server defaults (50 and 0). */
export type TransactionFilters = Partial<Query<'/api/v1/commerce/transactions/'>>
/** A project's ledger: the same, without `project` (the project is in the path). */
export type ProjectTransactionFilters = Partial<Query<'/api/v1/commerce/products/{id}/transactions/'>>

/**
 * Any calculator endpoint's query parameters and answer, by its name (/api/v1/co2-calculator/<name>): what the
 * generated calculator methods (./calculator.ts) take and return, so a new endpoint has its types with no hand edit.
 */
export type CalculatorQuery<E extends string> = Query<Calc<E>>
export type CalculatorResult<E extends string> = Ok<Calc<E>>

// The names the client has always exported, kept for callers that use them.
export type Country = CalculatorResult<'countries'>[number]
export type ConfigQuery = CalculatorQuery<'config'>
export type CountryConfig = CalculatorResult<'config'>
export type FootprintQuery = CalculatorQuery<'footprint'>
export type FootprintResult = CalculatorResult<'footprint'>
export type FlightQuery = CalculatorQuery<'flight'>
export type FlightResult = CalculatorResult<'flight'>
export type DietQuery = CalculatorQuery<'diet'>
export type DietResult = CalculatorResult<'diet'>
export type CarQuery = CalculatorQuery<'car'>
export type CarResult = CalculatorResult<'car'>
export type ClothesQuery = CalculatorQuery<'clothes'>
export type ClothesResult = CalculatorResult<'clothes'>
export type EnergyQuery = CalculatorQuery<'energy'>
export type EnergyResult = CalculatorResult<'energy'>
export type Pong = CalculatorResult<'ping'>

/** One entry of a calculator result's breakdown, and one cited source. */
export type BreakdownItem = DietResult['breakdown'][number]
export type Source = DietResult['sources'][number]
