// The calculator's methods are generated from the OpenAPI document (npm run client:generate); the catalogue's and
// the ledger's are written here, for their paging and key checks.
import { CalculatorApi } from './calculator.ts'
import { TonneError } from './errors.ts'
import { Transport, type CallOptions, type QueryValue, type TransportOptions } from './transport.ts'
import type {
  Project, ProjectFacetFilters, ProjectFacets, ProjectFeatureCollection, ProjectFilters, ProjectGeoJsonFilters,
  ProjectListItem, ProjectPage, ProjectTransactionFilters, Transaction, TransactionFilters, TransactionPage
} from './types.ts'

export type TonneClientOptions = TransportOptions

const PRODUCTS = '/api/v1/commerce/products'
const TRANSACTIONS = '/api/v1/commerce/transactions'
/** Page size of the iterators when the filters set no limit: fewer round trips than the service's default of 50. */
const ITERATION_PAGE_SIZE = 200

type Query = Readonly<Record<string, QueryValue>>

/**
 * The Tonne API: `projects` and `transactions` (the catalogue and its credit ledger; need an API key) and
 * `calculator` (open).
 * Works wherever `fetch` and `AbortSignal.any` do: Node.js 20.3+ and current browsers.
 */
export class TonneClient {
  readonly projects: ProjectsApi
  readonly transactions: TransactionsApi
  readonly calculator: CalculatorApi

  constructor (options: TonneClientOptions) {
    const transport = new Transport(options)
    this.projects = new ProjectsApi(transport)
    this.transactions = new TransactionsApi(transport)
    this.calculator = new CalculatorApi(transport)
  }
}

export class ProjectsApi {
  readonly #transport: Transport
  constructor (transport: Transport) { this.#transport = transport }

  /** One page: `{count, next, previous, results}`. Filters combine with AND; limit 1 to 1000 (default 50). */
  async list (filters: ProjectFilters = {}, options?: CallOptions): Promise<ProjectPage> {
    this.#requireKey()
    return await this.#transport.get<ProjectPage>(`${PRODUCTS}/`, filters as Query, options)
  }

  /**
   * Per registry, country, credit type, rating, in_sale, vintage, certification, SDG, status, category, protocol and
   * compliance: how many matching projects have each value, each facet counted with its own filter left out (for
   * filter panels).
   */
  async facets (filters: ProjectFacetFilters = {}, options?: CallOptions): Promise<ProjectFacets> {
    this.#requireKey()
    return await this.#transport.get<ProjectFacets>(`${PRODUCTS}/facets/`, filters as Query, options)
  }

  /** The matching projects that have a position, as a GeoJSON FeatureCollection (paged: limit up to 10000). */
  async geojson (filters: ProjectGeoJsonFilters = {}, options?: CallOptions): Promise<ProjectFeatureCollection> {
    this.#requireKey()
    return await this.#transport.get<ProjectFeatureCollection>(`${PRODUCTS}/geojson/`, filters as Query, options)
  }

  /** The full project, with external_id. An unknown id is a TonneApiError with status 404, code not_found. */
  async get (id: number, options?: CallOptions): Promise<Project> {
    this.#requireKey()
    return await this.#transport.get<Project>(`${PRODUCTS}/${encodeURIComponent(String(id))}/`, {}, options)
  }

  /**
   * Every page from `filters.offset` (default 0) to the last, `filters.limit` (default 200) at a time.
   * Pages are fetched as the loop asks for them; the `next` links are not followed, so the key is only
   * ever sent to `baseUrl`. Like any offset paging, a catalogue changed mid-way can shift items between pages.
   */
  async * pages (filters: ProjectFilters = {}, options?: CallOptions): AsyncGenerator<ProjectPage, void, undefined> {
    yield * everyPage(filters, async (paged) => await this.list(paged, options))
  }

  #requireKey (): void {
    requireKey(this.#transport, 'tonne.projects')
  }

  /** Every matching project, page after page: `for await (const project of tonne.projects.all({registry: 'VERRA'}))`.
   * */
  async * all (filters: ProjectFilters = {}, options?: CallOptions): AsyncGenerator<ProjectListItem, void, undefined> {
    for await (const page of this.pages(filters, options)) yield * page.results
  }
}

/** The catalogue's credit ledger: issuances, retirements and cancellations, of every project or of one. */
export class TransactionsApi {
  readonly #transport: Transport
  constructor (transport: Transport) { this.#transport = transport }

  /**
   * One page of the whole ledger: `{count, next, previous, results}`, newest first unless `ordering` says otherwise
   * (`date`, `-date`, `quantity`, `-quantity`). Filters combine with AND: `type`, `vintage`, `registry`, `project`,
   * `date_after`, `date_before` (inclusive YYYY-MM-DD) and `search` (in the beneficiary).
   */
  async list (filters: TransactionFilters = {}, options?: CallOptions): Promise<TransactionPage> {
    requireKey(this.#transport, 'tonne.transactions')
    return await this.#transport.get<TransactionPage>(`${TRANSACTIONS}/`, filters as Query, options)
  }

  /** One page of one project's ledger, with the same filters. An unknown project is a TonneApiError 404 not_found. */
  async listForProject (
    projectId: number, filters: ProjectTransactionFilters = {}, options?: CallOptions
  ): Promise<TransactionPage> {
    requireKey(this.#transport, 'tonne.transactions')
    return await this.#transport.get<TransactionPage>(
      `${PRODUCTS}/${encodeURIComponent(String(projectId))}/transactions/`, filters as Query, options)
  }

  /** Every page of the ledger from `filters.offset` (default 0), `filters.limit` (default 200) at a time. */
  async * pages (filters: TransactionFilters = {}, options?: CallOptions): AsyncGenerator<TransactionPage, void> {
    yield * everyPage(filters, async (paged) => await this.list(paged, options))
  }

  /** Every matching transaction: `for await (const t of tonne.transactions.all({ type: 'retirement' }))`. */
  async * all (filters: TransactionFilters = {}, options?: CallOptions): AsyncGenerator<Transaction, void> {
    for await (const page of this.pages(filters, options)) yield * page.results
  }

  /** Every page of one project's ledger. */
  async * pagesForProject (
    projectId: number, filters: ProjectTransactionFilters = {}, options?: CallOptions
  ): AsyncGenerator<TransactionPage, void> {
    yield * everyPage(filters, async (paged) => await this.listForProject(projectId, paged, options))
  }

  /** Every matching transaction of one project. */
  async * allForProject (
    projectId: number, filters: ProjectTransactionFilters = {}, options?: CallOptions
  ): AsyncGenerator<Transaction, void> {
    for await (const page of this.pagesForProject(projectId, filters, options)) yield * page.results
  }
}

/**
 * Every page from `filters.offset` (default 0) to the last, `filters.limit` (default 200) at a time, fetched as
 * the loop asks for them. The `next` links are not followed, so the key is only ever sent to `baseUrl`.
 */
async function * everyPage<F extends { limit?: number, offset?: number }, P extends {
  next: string | null,
  results: unknown[]
}> (filters: F, list: (paged: F) => Promise<P>): AsyncGenerator<P, void> {
  const limit = filters.limit ?? ITERATION_PAGE_SIZE
  for (let offset = filters.offset ?? 0; ;) {
    const page = await list({ ...filters, limit, offset })
    yield page
    if (page.next === null || page.results.length === 0) return
    offset += page.results.length
  }
}

/** Checked at the call, not at construction: a client without a key is fine for the calculator. */
function requireKey (transport: Transport, area: string): void {
  if (transport.hasApiKey) return
  throw new TonneError(
    `The catalogue (${area}) needs an API key and this client has none: pass it as apiKey, ` +
    'new TonneClient({ baseUrl, apiKey }). No request was sent.')
}
