import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { catalogueVersion } from '../catalogue/projects.repository.ts'
import type { CountMemo } from '../catalogue/projects.service.ts'
import { AnswerCache } from '../http/answer-cache.ts'
import { EncodedBody } from '../http/compression.ts'
import SerializerSelector from '@fastify/fast-json-stringify-compiler'
import { sendCsv, varyOnAccept, wantsCsv } from '../http/csv.ts'
import { etagMatches } from '../http/etag.ts'
import { pageLinks } from '../http/pagination.ts'
import { answerKey, knownQuery } from '../http/query-policy.ts'
import type { Charge } from '../http/rate-limit.ts'
import {
  countingRows, CSV_ROWS_PER_REQUEST, inSlot, isExpensivePage, offsetPrice, type ExpensiveRead
} from '../http/expensive-reads.ts'
import { errorResponses } from '../http/schemas.ts'
import { CachedRead, type ChangeFeed } from '../store/change-feed.ts'
import type { Db } from '../store/database.ts'
import {
  LedgerQuerySchema, ProjectLedgerParamsSchema, ProjectLedgerQuerySchema, TRANSACTION_CSV_COLUMNS,
  TransactionPageSchema, type Transaction
} from './transactions.schemas.ts'
import {
  allMatchingTransactions, listLedgerPage, listProjectLedgerPage, type LedgerReads
} from './transactions.service.ts'

export interface LedgerOptions {
  /** The catalogue's database (its read side); the ledger is part of the catalogue and shares its version. */
  db: Db
  changes: ChangeFeed
  /** Scheme, host and port of the service as the client sees it. */
  origin: (request: FastifyRequest) => string
  /** The service's one answer cache. */
  answers: AnswerCache
  charge: Charge
  /** Takes an expensive read's slot (search, CSV, deep pages); refuses with 429 past the caps. */
  expensive: ExpensiveRead
}

/** Bytes of remembered ledger counts (about 15,000 filters). */
const LEDGER_COUNTS_BYTES = 1024 * 1024

const SCOPE_NOTE = ' Needs an API key with the `catalogue:read` scope.'
const JSON_TYPE = 'application/json; charset=utf-8'

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
  const { db, changes, origin, answers, charge, expensive } = options
  const current = new CachedRead(changes, async () => await catalogueVersion(db))
  // Counts the ledger's summary cannot give (a project's, a search's) are kept per catalogue version even when
  // ANSWER_CACHE is off: a count is a fact of the version, not an answer, and one costs up to a full scan.
  const ledgerCounts = new AnswerCache(LEDGER_COUNTS_BYTES)

  /**
   * An answer is a function of the catalogue version (imports change both the projects and their ledger) and its
   * key, kept in the answer cache, serialised once by the 200 schema. Validators go on successful answers only;
   * errors are thrown to the error handler and never cached.
   */
  const send = async (
    request: FastifyRequest, reply: FastifyReply, search: string | undefined,
    build: (reads: LedgerReads) => Promise<{ count: number, items: Transaction[] }>
  ): Promise<FastifyReply> => {
    const version = await current.get()
    const key = `ledger ${version} ${origin(request)}${answerKey(request)}`
    const counts: CountMemo = async (name, count) =>
      (await ledgerCounts.getOrBuild(`count ${version} ${name}`, count, () => 64)).value
    const { value: answer, built } = await answers.getOrBuild(key, async () => {
      const { count, items } = isExpensivePage(request.query as { search?: string, offset?: number })
        ? await inSlot(() => expensive(request), async () => await build({ version, counts }))
        : await build({ version, counts })
      const { limit, offset } = request.query as { limit: number, offset: number }
      const links = pageLinks(`${origin(request)}${request.url.split('?', 1)[0]!}`, knownQuery(request), limit,
        offset, count)
      return {
        body: new EncodedBody(serializePage()({ count, ...links, results: items })),
        etag: `W/"${createHash('sha1').update(key).digest('base64url')}"`
      }
    }, (built) => built.body.bytes + built.etag.length * 2)
    const cost = (search !== undefined && search.trim() !== '' ? BUILD_COST.search : BUILD_COST.page) +
      offsetPrice((request.query as { offset?: number }).offset)
    if (built && cost > 1) await charge(request, cost - 1)
    reply.header('etag', answer.etag).header('cache-control', 'private, max-age=60')
    if (etagMatches(request.headers['if-none-match'], answer.etag)) return reply.code(304).send()
    answers.resize(key, answer.body.send(request, reply, JSON_TYPE))
    return reply
  }

  // One URL, two representations: JSON pages, or (format=csv, Accept: text/csv) every match as CSV.
  const pageOrCsv = {
    description: 'A page of transactions (JSON), or every matching transaction (CSV).',
    content: {
      'application/json': { schema: TransactionPageSchema },
      'text/csv': {
        schema: { type: 'string' },
        example: 'id,project_id,type,date,vintage,quantity,beneficiary,reason,source_file,source_line\r\n' +
          '17,51,retirement,2021-03-02,2012,500,Example Bank,Voluntary offsetting,verra/transactions.csv,12\r\n'
      }
    }
  }
  /** A CSV download costs what a search does: it reads every match (docs/api.md, "CSV"). */
  const sendCsvOnce = async (request: FastifyRequest, reply: FastifyReply, rows: AsyncIterable<Transaction>) => {
    await charge(request, BUILD_COST.search - 1)
    // A download holds its expensive read's slot until its answer ends or its client goes.
    reply.raw.once('close', expensive(request))
    const priced = countingRows(rows, (count) => {
      const units = Math.floor(count / CSV_ROWS_PER_REQUEST)
      if (units > 0) charge(request, units).catch(() => undefined)
    })
    return await sendCsv(reply, 'transactions.csv', TRANSACTION_CSV_COLUMNS, priced)
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
      return await sendCsvOnce(request, reply, await allMatchingTransactions(db, request.query, request.params.id))
    }
    return await send(request, reply, request.query.search,
      async (reads) => await listProjectLedgerPage(db, request.params.id, request.query, reads))
  })
}
