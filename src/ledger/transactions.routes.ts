import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import type { CountMemo } from '../catalogue/catalogue-shared.ts'
import { AnswerCache } from '../http/answer-cache.ts'
import type { AnswerPath } from '../http/answer-path.ts'
import SerializerSelector from '@fastify/fast-json-stringify-compiler'
import { csvFilename, sendCsv, varyOnAccept, wantsCsv } from '../http/csv.ts'
import { pageLinks } from '../http/pagination.ts'
import { answerKey, knownQuery } from '../http/query-policy.ts'
import type { Charge } from '../http/rate-limit.ts'
import {
  countingRows, CSV_ROWS_PER_REQUEST, offsetPrice, type ExpensiveRead
} from '../http/expensive-reads.ts'
import { errorResponses } from '../http/schemas.ts'
import type { Db } from '../store/database.ts'
import {
  LedgerQuerySchema, LedgerTotalsQuerySchema, LedgerTotalsSchema, ProjectLedgerParamsSchema, ProjectLedgerQuerySchema,
  TRANSACTION_CSV_COLUMNS, TRANSACTION_CSV_HEADER, TRANSACTION_CSV_NAMING, TransactionPageSchema, type LedgerItem,
  type Transaction
} from './transactions.schemas.ts'
import {
  allMatchingTransactions, ledgerTotals, listLedgerPage, listProjectLedgerPage, withProjectIdentity,
  type LedgerReads
} from './transactions.service.ts'

interface LedgerOptions {
  /** The catalogue's database (its read side); the ledger is part of the catalogue and shares its version. */
  db: Db
  /** The catalogue's answer path (version, key, cache, ETag, compression). */
  path: AnswerPath
  /** Scheme, host and port of the service as the client sees it. */
  origin: (request: FastifyRequest) => string
  charge: Charge
  /** Takes an expensive read's slot (search, CSV, deep pages); refuses with 429 past the caps. */
  expensive: ExpensiveRead
}

/** Bytes of remembered ledger counts (about 15,000 filters). */
const LEDGER_COUNTS_BYTES = 1024 * 1024

const SCOPE_NOTE = ' Needs an API key with the `catalogue:read` scope.'

/**
 * What an answer costs against the caller's per-minute limit when it has to be built, as in the catalogue: a page
 * 1, a page with `search` 5 (a substring match over beneficiaries and its count), plus 1 per 10,000 rows of
 * `offset`; a CSV download 5 plus 1 per 1,000 rows. A cached answer costs 1; a failed one its time (rate-limit.ts).
 */
const BUILD_COST = { page: 1, search: 5 } as const

const FILTERS_NOTE = 'Filters combine (AND); an unknown query parameter, or one given twice, is a 400. Ordered by ' +
  '`ordering` (default `-date`: newest first), id breaking ties in the same direction; transactions without a ' +
  'date come last.'

// The 200 answer is JSON pages or CSV by content type, so a page is serialised by its own compiled schema
// (fast-json-stringify, as Fastify would), compiled on first use like the route schemas.
let pageSerializer: ((page: unknown) => string) | undefined
const serializePage = (): ((page: unknown) => string) => {
  pageSerializer ??= SerializerSelector()({}, {})({
    schema: TransactionPageSchema, method: 'GET', url: '/transactions/', httpStatus: '200'
  }) as (page: unknown) => string
  return pageSerializer
}

/** GET /api/v1/commerce/transactions/ and /api/v1/commerce/products/{id}/transactions/ (under /api/v1/commerce). */
export const ledgerRoutes: FastifyPluginAsyncTypebox<LedgerOptions> = async (app, options) => {
  const { db, path, origin, charge, expensive } = options
  // Counts the ledger's summary cannot give (a project's, a search's) are kept per catalogue version even when
  // ANSWER_CACHE is off: a count is a fact of the version, not an answer, and one costs up to a full scan.
  const ledgerCounts = new AnswerCache(LEDGER_COUNTS_BYTES)

  /**
   * A page goes through the catalogue's answer path (http/answer-path.ts): an import changes projects and their
   * ledger together, so one catalogue version names both. It is serialised once by the 200 schema.
   */
  const send = async (
    request: FastifyRequest, reply: FastifyReply, search: string | undefined,
    build: (reads: LedgerReads) => Promise<{ count: number, items: LedgerItem[] }>
  ): Promise<FastifyReply> => await path.send(request, reply, {
    cost: (search !== undefined && search.trim() !== '' ? BUILD_COST.search : BUILD_COST.page) +
      offsetPrice((request.query as { offset?: number }).offset),
    key: `${origin(request)}${answerKey(request)}`,
    build: async (version) => {
      const counts: CountMemo = async (name, count) =>
        (await ledgerCounts.getOrBuild(`count ${version} ${name}`, count, () => 64)).value
      const { count, items } = await build({ version, counts })
      const { limit, offset } = request.query as { limit: number, offset: number }
      const links = pageLinks(`${origin(request)}${request.url.split('?', 1)[0]!}`, knownQuery(request), limit,
        offset, count)
      return serializePage()({ count, ...links, results: items })
    }
  })

  // One URL, two representations: JSON pages, or (format=csv, Accept: text/csv) every match as CSV.
  const pageOrCsv = {
    description: 'A page of transactions (JSON), or every matching transaction (CSV).',
    content: {
      'application/json': { schema: TransactionPageSchema },
      'text/csv': {
        schema: { type: 'string' },
        example: `${TRANSACTION_CSV_HEADER}\r\n` +
          '17,retirement:VCS-VCU-1-2012-1-500,51,VCS1340,Example Forest,Verra,VERRA,retirement,2021-03-02,2012,500,' +
          'Example Bank,Voluntary offsetting,Retired for 2020 emissions,,VCS-VCU-1-2012-1-500,2012-01-01,2012-12-31,' +
          'verra/transactions.csv,12\r\n'
      }
    }
  }
  /** A CSV download costs what a search does: it reads every match (docs/api.md, "CSV"). */
  const sendCsvOnce = async (
    request: FastifyRequest, reply: FastifyReply, rows: AsyncIterable<Transaction>, base = 'transactions'
  ) => {
    await charge(request, BUILD_COST.search - 1)
    const filename = csvFilename(base, request.query as Record<string, unknown>, TRANSACTION_CSV_NAMING.names,
      TRANSACTION_CSV_NAMING.bare)
    // A download holds its expensive read's slot until its answer ends or its client goes.
    const release = await expensive(request)
    // A client that left while its read waited for a slot gives it back at once.
    if (reply.raw.destroyed || request.raw.socket.destroyed) release()
    else reply.raw.once('close', release)
    const priced = countingRows(rows, (count) => {
      const units = Math.floor(count / CSV_ROWS_PER_REQUEST)
      if (units > 0) charge(request, units).catch(() => undefined)
    })
    return await sendCsv(reply, filename, TRANSACTION_CSV_COLUMNS, withProjectIdentity(db, priced))
  }

  app.get('/transactions/', {
    schema: {
      tags: ['ledger'],
      operationId: 'listTransactions',
      summary: 'List the credit ledger',
      description: 'A page of the whole catalogue\'s credit transactions: every issuance, retirement and ' +
        `cancellation the imported registry exports list, one item each. ${FILTERS_NOTE} An addition beyond the ` +
        `original contract.${SCOPE_NOTE}`,
      querystring: LedgerQuerySchema,
      response: { 200: pageOrCsv, ...errorResponses(400, 401, 403, 429) }
    }
  }, async (request, reply) => {
    varyOnAccept(reply)
    if (wantsCsv(request, request.query.format)) {
      return await sendCsvOnce(request, reply, await allMatchingTransactions(db, request.query))
    }
    return await send(request, reply, request.query.search,
      async (reads) => await listLedgerPage(db, request.query, reads))
  })

  // Sums read every match, as a search does: built once per catalogue version and filters, then cached.
  app.get('/transactions/totals/', {
    schema: {
      tags: ['ledger'],
      operationId: 'getTransactionTotals',
      summary: 'Totals of the credit ledger',
      description: 'Per type (issuance, retirement, cancellation), how many transactions match the filters and ' +
        'their credits summed: the totals of what the list and its CSV give for the same filters (`project` for ' +
        'one project\'s). Costs 5 requests of the rate limit when the answer is not cached. An addition beyond ' +
        `the original contract.${SCOPE_NOTE}`,
      querystring: LedgerTotalsQuerySchema,
      response: { 200: LedgerTotalsSchema, ...errorResponses(400, 401, 403, 429) }
    }
  }, async (request, reply) => {
    // Totals read every match, so building them takes an expensive read's slot, as a search does.
    return await path.send(request, reply, {
      cost: BUILD_COST.search,
      expensive: true,
      build: async () => JSON.stringify(await ledgerTotals(db, request.query))
    })
  })

  app.get('/products/:id/transactions/', {
    schema: {
      tags: ['ledger'],
      operationId: 'listProjectTransactions',
      summary: 'List one project\'s credit ledger',
      description: `A page of one project's credit transactions, with the whole ledger's filters. ${FILTERS_NOTE} ` +
        `An unknown or malformed project id is a 404. An addition beyond the original contract.${SCOPE_NOTE}`,
      params: ProjectLedgerParamsSchema,
      querystring: ProjectLedgerQuerySchema,
      response: { 200: pageOrCsv, ...errorResponses(400, 401, 403, 404, 429) }
    }
  }, async (request, reply) => {
    varyOnAccept(reply)
    if (wantsCsv(request, request.query.format)) {
      return await sendCsvOnce(request, reply, await allMatchingTransactions(db, request.query, request.params.id),
        `project-${request.params.id}-transactions`)
    }
    return await send(request, reply, request.query.search,
      async (reads) => await listProjectLedgerPage(db, request.params.id, request.query, reads))
  })
}
